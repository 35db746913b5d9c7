import { LRUCache } from "lru-cache";
import type { SearchResult, SinceResult } from "../../src/api/schemas.ts";
import type { SearchQuery } from "../../src/search/query.ts";
import { type Outcome, parseSearch, parseSince, runSearch, runSince } from "../../src/search/query-service.ts";
import { searchResultJson, sinceResultJson } from "../../src/search/result-json.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type CachedResponse, ResponseCache, searchEtag, sinceEtag } from "../response-cache.ts";

/**
 * `search_reviews` and `get_reviews_since` answered from the response cache of
 * `GET /api/reviews/search` and `since/{date}` (sidecar/response-cache.ts), under the same keys:
 * the canonical query is transport-neutral, and the identity-coded body the route sends is exactly
 * the tool's text block. A query asked before, through either door, runs no search and no
 * serialisation; the entry also keeps the result object for `structuredContent`, frozen, so the
 * SDK's output-schema check runs once per entry (cached-schema.ts, `validatesOnce`) rather than
 * on every call.
 *
 * An entry made by an HTTP route has the body (or, for since, only the ETag) but no object: the
 * query is run again (posting lists and a prefix slice: cheap) and the entry is stored again with
 * both. A body too large for the cache's bound is not stored, and the next call builds it again.
 */

/** What an entry's `value` adds to its size: the object, its array of record references and strings. */
function valueBytes(reviews: readonly unknown[], strings: number): number {
  return 128 + 8 * reviews.length + 2 * strings;
}

/** The cached entry under `key`, completed (body, frozen value) and stored again when it lacks either. */
function complete<T extends { reviews: unknown[] }>(
  cache: ResponseCache,
  key: string,
  make: () => { etag: string; value: T; json: (value: T) => Buffer; strings: number },
): JsonValue<T> {
  const found = cache.get(key);
  if (found?.body && found.value) return { text: found.body.toString("utf8"), value: found.value.data as T };
  const made = make();
  Object.freeze(made.value.reviews);
  const data = Object.freeze(made.value);
  const body = found?.body ?? made.json(data);
  const entry: CachedResponse = {
    etag: found?.etag ?? made.etag,
    coding: "identity",
    body,
    value: { data, bytes: valueBytes(data.reviews, made.strings) },
  };
  cache.set(key, entry);
  return { text: body.toString("utf8"), value: data };
}

export interface CachedResultsDeps {
  cache: ResponseCache;
  baseUrl: string;
}

/** A result as a tool returns it: the JSON text and the (frozen) object it is the JSON of. */
export interface JsonValue<T> {
  text: string;
  value: T;
}

/**
 * Arguments already parsed in a snapshot, by their JSON: a repeated call skips validation, as a
 * repeated query string does on the HTTP route. Per snapshot (the technicians and aspects it
 * validates against are the snapshot's), and gone with it.
 */
const parsedArgs = new WeakMap<Snapshot, LRUCache<string, SearchQuery>>();

function parseArgs(snapshot: Snapshot, args: Record<string, unknown>): Outcome<SearchQuery> {
  let memo = parsedArgs.get(snapshot);
  if (memo === undefined) {
    memo = new LRUCache({ max: 10_000, maxSize: 16 * 1024 * 1024, sizeCalculation: (_v, k) => 256 + k.length * 4 });
    parsedArgs.set(snapshot, memo);
  }
  const key = JSON.stringify(args);
  const known = memo.get(key);
  if (known !== undefined) return { ok: true, value: known };
  const parsed = parseSearch(snapshot.index, args);
  if (parsed.ok) memo.set(key, parsed.value);
  return parsed;
}

/** The search for `args` in `snapshot`, or the issues with `args`. */
export function cachedSearch(
  { cache, baseUrl }: CachedResultsDeps,
  snapshot: Snapshot,
  args: Record<string, unknown>,
): Outcome<JsonValue<SearchResult>> {
  const parsed = parseArgs(snapshot, args);
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const key = ResponseCache.key(snapshot.version, `search?${q.key}`, "identity");
  const value = complete<SearchResult>(cache, key, () => {
    const result = runSearch(snapshot.index, q, baseUrl);
    const etag = searchEtag(snapshot.version, baseUrl, q.key);
    return { etag, value: result, json: searchResultJson, strings: result.next?.length ?? 0 };
  });
  return { ok: true, value };
}

/** The reviews on or after `date` in `snapshot`, or the issues with `date`. */
export function cachedSince(
  { cache }: Pick<CachedResultsDeps, "cache">,
  snapshot: Snapshot,
  date: unknown,
): Outcome<JsonValue<SinceResult>> {
  const parsed = parseSince(snapshot.index, date);
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const key = ResponseCache.key(snapshot.version, `since/${q.date}`, "identity");
  const value = complete<SinceResult>(cache, key, () => {
    const etag = sinceEtag(q.date, snapshot.chain[q.count] as string);
    return { etag, value: runSince(snapshot.index, q), json: sinceResultJson, strings: q.date.length };
  });
  return { ok: true, value };
}
