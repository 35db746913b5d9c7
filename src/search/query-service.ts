import { z } from "zod";
import { echoedText, echoedValue } from "../api/echoed-values.ts";
import type { SearchResult, SinceResult } from "../api/schemas.ts";
import { dateMessage, isoDateFor } from "../content/date-forms.ts";
import { isCalendarDate } from "../content/dates.ts";
import { type ParamSource, parseSearchParams, type QueryIssue, type SearchQuery } from "./query.ts";
import type { SearchIndex } from "./review-index.ts";

/**
 * The query service behind every front door: `GET /api/reviews/search` and `since/{date}` over
 * HTTP, and the MCP tools `search_reviews` and `get_reviews_since`. It takes parameters as the
 * transport received them and returns a result or the issues that name each bad parameter, so a
 * bad value gets the same wording at every door. It knows nothing of HTTP or MCP: adapters turn
 * `issues` into a 400 body or an `isError` result, and own caching and serialisation.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; issues: QueryIssue[] };

/** The error body for bad input: the HTTP 400 body and the text of the MCP `isError` result. */
export function invalidQueryBody(issues: QueryIssue[]): {
  error: "invalid_query";
  message: string;
  issues: QueryIssue[];
} {
  // Values are echoed as sent, a long one cut (echoedValue): each door's edge makes the body I-JSON
  // (the HTTP error handler's `ijsonValue`; MCP refuses a message that holds what I-JSON forbids).
  const listed = listedIssues(issues).map((i) => ({ ...i, path: echoedText(i.path), value: echoedValue(i.value) }));
  const summary = listed.map((i) => `${i.path}: ${i.message}`).join("; ");
  return { error: "invalid_query", message: `Invalid query: ${summary}`, issues: listed };
}

/** The most issues one error body lists, the last of them saying how many more there were. */
export const MAX_LISTED_ISSUES = 20;

/**
 * The issues an error body lists: all of them up to MAX_LISTED_ISSUES, else the first ones and a
 * count of the rest. Each unknown name's issue lists the valid ones, so a 64 KiB MCP call of 6,000
 * unknown argument names was answered with 2.2 MB.
 */
function listedIssues(issues: QueryIssue[]): QueryIssue[] {
  if (issues.length <= MAX_LISTED_ISSUES) return issues;
  const rest = issues.length - (MAX_LISTED_ISSUES - 1);
  const more = { path: "(query)", value: rest, message: `and ${rest} more problems, not listed; fix these first` };
  return [...issues.slice(0, MAX_LISTED_ISSUES - 1), more];
}

/**
 * Validates and normalises search input (see `parseSearchParams`; `source` says whether an array
 * is a repeated query parameter); no search is run. The one parser of both doors: a repeated input
 * is not parsed again, as the adapters remember parsed queries per snapshot
 * (sidecar/build/result-store.ts).
 */
export function parseSearch(
  index: SearchIndex,
  input: Record<string, unknown>,
  source: ParamSource,
): Outcome<SearchQuery> {
  const { business, aspects } = index.dataset;
  const parsed = parseSearchParams(input, source, business, aspects);
  return parsed.ok ? { ok: true, value: parsed.query } : parsed;
}

/** Runs a parsed query; `baseUrl` is the public origin the `next` link points at. */
export function runSearch(index: SearchIndex, query: SearchQuery, baseUrl: string): SearchResult {
  return index.search(query, baseUrl);
}

/** Parse and run in one step, for adapters that cache nothing. */
export function searchReviews(
  index: SearchIndex,
  input: Record<string, unknown>,
  source: ParamSource,
  baseUrl: string,
): Outcome<SearchResult> {
  const parsed = parseSearch(index, input, source);
  return parsed.ok ? { ok: true, value: runSearch(index, parsed.value, baseUrl) } : parsed;
}

/** A validated since query: the day, and how many reviews (newest first) are on or after it. */
export const SinceQuerySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  count: z.number().int().nonnegative(),
});
export type SinceQuery = z.infer<typeof SinceQuerySchema>;

/**
 * What is wrong with a since/{date} request: its date, and `extra`, any other parameters the
 * transport received; since takes none, so each is reported rather than ignored.
 */
export function sinceIssues(date: unknown, extra: Record<string, unknown> = {}): QueryIssue[] {
  const issues: QueryIssue[] = [];
  if (typeof date !== "string" || !isCalendarDate(date)) {
    // The hint search's since and until give (`2026-1-5`: write 2026-01-05), where one can be told.
    const message = isoDateFor(date)
      ? dateMessage(date)
      : "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05";
    issues.push({ path: "date", value: date, message });
  }
  return [...issues, ...sinceParameterIssues(extra)];
}

/** One issue per query parameter given to since/{date}, which takes none. */
export function sinceParameterIssues(extra: Record<string, unknown>): QueryIssue[] {
  return Object.entries(extra).map(([path, value]) => ({
    path,
    value,
    message: "unknown parameter; since takes no query parameters",
  }));
}

export function parseSince(
  index: SearchIndex,
  date: unknown,
  extra: Record<string, unknown> = {},
): Outcome<SinceQuery> {
  const issues = sinceIssues(date, extra);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { date: date as string, count: index.countOnOrAfter(date as string) } };
}

/** The body of since/{date}: exactly a prefix of the dataset's reviews. */
export function runSince(index: SearchIndex, q: SinceQuery): SinceResult {
  return { since: q.date, count: q.count, reviews: index.dataset.reviews.slice(0, q.count) };
}

/** Parse and run in one step, for adapters that cache nothing. */
export function reviewsSince(index: SearchIndex, date: unknown): Outcome<SinceResult> {
  const parsed = parseSince(index, date);
  return parsed.ok ? { ok: true, value: runSince(index, parsed.value) } : parsed;
}
