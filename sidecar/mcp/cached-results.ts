import type { SearchResult, SinceResult } from "../../src/api/schemas.ts";
import { type Outcome, parseSearch, parseSince, runSearch, runSince } from "../../src/search/query-service.ts";
import { searchResultJson, sinceResultJson } from "../../src/search/result-json.ts";
import { searchEtag, sinceEtag } from "../build/result-store.ts";
import type { Snapshot } from "../build/snapshot.ts";

/**
 * `search_reviews` and `get_reviews_since` answered from the snapshot's result store
 * (sidecar/build/result-store.ts), under the keys the HTTP routes use: the canonical query is
 * transport-neutral, and the identity body the route sends is exactly the tool's text block. A
 * query asked before, through either door, runs no search and no serialisation; the entry also
 * keeps the result object for `structuredContent` (frozen at its top level and its review list, so
 * no caller can change what the next one reads); the SDK checks it against the tool's output
 * schema on every call.
 *
 * An entry made by an HTTP route has no object, and the body only if a client took it identity
 * (otherwise its compressed variants, or for since only the ETag): the query is run again (posting
 * lists and a prefix slice: cheap) and the entry is kept again with both. With the store off
 * (RESPONSE_CACHE_MB=0), every call parses, runs and serialises.
 */

/** A result as a tool returns it: the JSON text and the (frozen) object it is the JSON of. */
export interface JsonValue<T> {
  text: string;
  value: T;
}

/** What an entry's `value` adds to its size: the object, its array of record references and strings. */
function valueBytes(reviews: readonly unknown[], strings: number): number {
  return 128 + 8 * reviews.length + 2 * strings;
}

/** The kept entry under `key`, completed (body, frozen value) and kept again when it lacks either. */
function complete<T extends { reviews: unknown[] }>(
  snapshot: Snapshot,
  key: string,
  make: () => { etag: string; value: T; json: (value: T) => Buffer; strings: number },
): JsonValue<T> {
  const found = snapshot.results.get(key);
  if (found?.body && found.value) return { text: found.body.toString("utf8"), value: found.value.data as T };
  const made = make();
  Object.freeze(made.value.reviews);
  const data = Object.freeze(made.value);
  const body = found?.body ?? made.json(data);
  snapshot.results.set(key, {
    ...found,
    etag: found?.etag ?? made.etag,
    body,
    value: { data, bytes: valueBytes(data.reviews, made.strings) },
  });
  return { text: body.toString("utf8"), value: data };
}

/** The search for `args` in `snapshot`, or the issues with `args`. */
export function cachedSearch(
  snapshot: Snapshot,
  baseUrl: string,
  args: Record<string, unknown>,
): Outcome<JsonValue<SearchResult>> {
  // Arguments already parsed in this snapshot, by their JSON: a repeated call skips validation.
  const parsed = snapshot.results.query(JSON.stringify(args), () => parseSearch(snapshot.index, args, "json"));
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const value = complete<SearchResult>(snapshot, `search?${q.key}`, () => {
    const result = runSearch(snapshot.index, q, baseUrl);
    const etag = searchEtag(snapshot.version, baseUrl, q.key);
    return { etag, value: result, json: searchResultJson, strings: result.next?.length ?? 0 };
  });
  return { ok: true, value };
}

/** The reviews on or after `date` in `snapshot`, or the issues with `date`. */
export function cachedSince(snapshot: Snapshot, date: unknown): Outcome<JsonValue<SinceResult>> {
  const parsed = parseSince(snapshot.index, date);
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const value = complete<SinceResult>(snapshot, `since/${q.date}`, () => {
    const etag = sinceEtag(q.date, snapshot.chain[q.count] as string);
    return { etag, value: runSince(snapshot.index, q), json: sinceResultJson, strings: q.date.length };
  });
  return { ok: true, value };
}
