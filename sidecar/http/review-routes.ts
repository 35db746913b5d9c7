import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import type { QueryIssue, SearchQuery } from "../../src/search/query.ts";
import type { SinceQuery } from "../../src/search/query-service.ts";
import { invalidQueryBody, parseSearch, parseSince, runSearch, runSince } from "../../src/search/query-service.ts";
import { searchResultJson, sinceFrame, sinceResultJson } from "../../src/search/result-json.ts";
import type { BuildEvents } from "../build/live-build.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type CachedResponse, ResponseCache, searchEtag, sinceEtag } from "../response-cache.ts";
import {
  type Coding,
  compress,
  DYNAMIC_CODINGS,
  MIN_COMPRESS_BYTES,
  negotiateCoding,
  variantEtag,
} from "./content-coding.ts";
import { HttpError } from "./error.ts";
import { writeRepresentation } from "./representation.ts";

/**
 * The HTTP adapter of the query service: reads the query string, turns issues into a 400, and
 * sends the result from the response cache, filling it on a miss. Each cached body is exactly
 * what the uncached path would send (test/search-cache.test.ts), compressed once per entry.
 */

/**
 * Reads the query string exactly as sent: repeated names become arrays so they can be reported.
 * A null-prototype map, so `__proto__`, `constructor` and friends are ordinary unknown names
 * (reported as such) rather than the prototype's setter or an inherited function.
 */
export function rawQuery(originalUrl: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const qs = originalUrl.includes("?") ? originalUrl.slice(originalUrl.indexOf("?") + 1) : "";
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export function invalidQuery(issues: QueryIssue[]): HttpError {
  const { error, message } = invalidQueryBody(issues);
  return new HttpError(400, error, message, { issues });
}

/** Bytes of the since body, from the review JSON lengths the snapshot summed at load. */
function sinceBodyLength(s: Snapshot, q: SinceQuery): number {
  const { head, tail } = sinceFrame(q.date, q.count);
  return head.length + (s.jsonBytes[q.count] as number) + Math.max(0, q.count - 1) + tail.length;
}

const JSON_TYPE = "application/json; charset=utf-8";
const CACHE_CONTROL = "public, max-age=60";

export interface ReviewRoutesDeps {
  /** The snapshot the request holds, so one response never mixes two builds. */
  current: (res: Response) => Snapshot;
  /** A new build clears the cache. */
  builds: BuildEvents;
  baseUrl: string;
  cache: ResponseCache;
}

/** A coded entry for an identity body: small bodies stay identity, under the identity tag. */
function encodeEntry(etag: string, identity: Buffer, accepted: Coding): CachedResponse {
  if (accepted === "identity" || identity.length < MIN_COMPRESS_BYTES)
    return { etag, coding: "identity", body: identity };
  return { etag: variantEtag(etag, accepted), coding: accepted, body: compress(identity, accepted, "dynamic") };
}

function send(req: Request, res: Response, entry: CachedResponse, body: () => Buffer, s: Snapshot, since: boolean) {
  writeRepresentation(
    req,
    res,
    {
      etag: entry.etag,
      coding: entry.coding,
      contentType: JSON_TYPE,
      cacheControl: CACHE_CONTROL,
      lastModifiedMs: since ? s.lastModifiedMs : undefined,
      lastModified: since ? s.lastModified : undefined,
      vary: true,
    },
    body,
  );
}

/**
 * The handlers of `GET /api/reviews/search` and `GET /api/reviews/since/:date`, for the app to
 * mount directly: a nested router would add a dispatch layer to the hottest requests.
 */
export function reviewRoutes({ current, builds, baseUrl, cache }: ReviewRoutesDeps): {
  guard: RequestHandler;
  search: RequestHandler;
  since: RequestHandler<{ date: string }>;
} {
  // Query strings already parsed in this build: a repeated query skips validation entirely.
  const parsed = new LRUCache<string, SearchQuery>({
    max: 10_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (_v, k) => 256 + k.length * 4,
  });
  builds.onLive("clearing the response cache", ({ snapshot, previous }) => {
    if (snapshot === previous) return;
    cache.clear();
    parsed.clear();
  });

  const search: RequestHandler = (req, res) => {
    const snapshot = current(res);
    const at = req.originalUrl.indexOf("?");
    const qs = at < 0 ? "" : req.originalUrl.slice(at + 1);
    let q = parsed.get(qs);
    if (!q) {
      const outcome = parseSearch(snapshot.index, rawQuery(req.originalUrl));
      if (!outcome.ok) throw invalidQuery(outcome.issues);
      q = outcome.value;
      parsed.set(qs, q);
    }
    const coding = negotiateCoding(req.headers["accept-encoding"], DYNAMIC_CODINGS);
    const key = ResponseCache.key(snapshot.version, `search?${q.key}`, coding);
    let entry = cache.get(key);
    if (!entry?.body) {
      const identity = searchResultJson(runSearch(snapshot.index, q, baseUrl));
      entry = encodeEntry(searchEtag(snapshot.version, baseUrl, q.key), identity, coding);
      cache.set(key, entry);
    }
    const body = entry.body as Buffer;
    send(req, res, entry, () => body, snapshot, false);
  };

  const since: RequestHandler<{ date: string }> = (req, res) => {
    const snapshot = current(res);
    const date = req.params.date;
    const coding = negotiateCoding(req.headers["accept-encoding"], DYNAMIC_CODINGS);
    const plain = !req.originalUrl.includes("?");
    // Entries are stored only for dates that passed validation, under the date as given: a date
    // already answered in this build (every revalidation) needs no parsing.
    const key = ResponseCache.key(snapshot.version, `since/${date}`, coding);
    let entry = plain ? cache.get(key) : undefined;
    const parse = (): SinceQuery => {
      const outcome = parseSince(snapshot.index, date, plain ? {} : rawQuery(req.originalUrl));
      if (!outcome.ok) throw invalidQuery(outcome.issues);
      return outcome.value;
    };
    let q: SinceQuery | undefined;
    if (!entry) {
      const parsed = parse();
      q = parsed;
      entry = cache.get(key);
      if (!entry) {
        // The ETag and coding are known without the body (see `Snapshot.chain`), so a 304 never builds it.
        const etag = sinceEtag(date, snapshot.chain[parsed.count] as string);
        const small = coding === "identity" || sinceBodyLength(snapshot, parsed) < MIN_COMPRESS_BYTES;
        entry = small ? { etag, coding: "identity" } : { etag: variantEtag(etag, coding), coding };
        cache.set(key, entry);
      }
    }
    const known = entry;
    send(
      req,
      res,
      known,
      () => {
        if (known.body) return known.body;
        const identity = sinceResultJson(runSince(snapshot.index, q ?? parse()));
        const body = known.coding === "identity" ? identity : compress(identity, known.coding, "dynamic");
        cache.set(key, { ...known, body });
        return body;
      },
      snapshot,
      true,
    );
  };
  // Express would answer a date that is not valid percent-encoding (`%`, `%zz`) with its own 400
  // before the route runs; report it like any other bad date instead.
  const guard: RequestHandler = (req, _res, next) => {
    const prefix = "/api/reviews/since/";
    if (!req.path.startsWith(prefix)) return next();
    const raw = req.path.slice(prefix.length);
    try {
      decodeURIComponent(raw);
    } catch {
      const hint = "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05";
      throw invalidQuery([{ path: "date", value: raw, message: `${hint}; "${raw}" is not valid percent-encoding` }]);
    }
    next();
  };
  return { guard, search, since };
}
