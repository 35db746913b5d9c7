import { shownValue } from "../../src/api/echoed-values.ts";
import { type QueryIssue, SEARCH_PARAMS, type SearchQuery } from "../../src/search/query.ts";
import { type Outcome, parseSearch } from "../../src/search/query-service.ts";
import type { SearchIndex } from "../../src/search/review-index.ts";

/** The query string of a request target, without its `?`; "" when there is none. */
function queryOf(originalUrl: string): string {
  const at = originalUrl.indexOf("?");
  return at < 0 ? "" : originalUrl.slice(at + 1);
}

/**
 * Reads the query string exactly as sent: repeated names become arrays so they can be reported.
 * A null-prototype map, so `__proto__`, `constructor` and friends are ordinary unknown names
 * (reported as such) rather than the prototype's setter or an inherited function.
 */
export function rawQuery(originalUrl: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(queryOf(originalUrl))) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Whether the percent-escapes of `value` decode to UTF-8 (a `%` that starts no escape is itself). */
function decodesToUtf8(value: string): boolean {
  try {
    decodeURIComponent(value.replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
    return true;
  } catch {
    return false;
  }
}

/**
 * The parameters of a query string whose value's percent-escapes do not decode to UTF-8
 * (`query=caf%E9`, "café" from ISO-8859-1), each with its value as `URLSearchParams` reads it,
 * U+FFFD for each bad sequence. Raw bytes outside ASCII never get here: the HTTP parser refuses them.
 */
function nonUtf8Values(qs: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of qs.split("&")) {
    const value = pair.slice(pair.indexOf("=") + 1 || pair.length);
    if (!value.includes("%") || decodesToUtf8(value)) continue;
    for (const [name, read] of new URLSearchParams(pair)) out.set(name, read);
  }
  return out;
}

/**
 * Validates the query string of a search as `parseSearch` does, and refuses a known parameter's
 * value that is not UTF-8, as since/{date} refuses such a date: read with U+FFFD it was searched
 * for as such (no match, and no word of why). Its own issue, when it has one, says so too; an
 * unknown or repeated parameter is already reported as such.
 */
export function parseSearchQuery(index: SearchIndex, originalUrl: string): Outcome<SearchQuery> {
  const input = rawQuery(originalUrl);
  const parsed = parseSearch(index, input, "query-string");
  const issues: QueryIssue[] = parsed.ok ? [] : [...parsed.issues];
  for (const [name, value] of nonUtf8Values(queryOf(originalUrl))) {
    if (!(SEARCH_PARAMS as readonly string[]).includes(name) || Array.isArray(input[name])) continue;
    const note = `${shownValue(value)} is not valid UTF-8`;
    const at = issues.findIndex((i) => i.path === name);
    const own = issues[at];
    if (own) issues[at] = { ...own, message: `${own.message}; ${note}` };
    else issues.push({ path: name, value, message: `${note}; percent-encode the text's UTF-8 bytes (é is %C3%A9)` });
  }
  return issues.length > 0 ? { ok: false, issues } : parsed;
}
