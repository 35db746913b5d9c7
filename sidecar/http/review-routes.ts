import type { Request, RequestHandler, Response } from "express";
import type { QueryIssue } from "../../src/search/query.ts";
import type { SinceQuery } from "../../src/search/query-service.ts";
import { invalidQueryBody, parseSearch, parseSince, runSearch, runSince } from "../../src/search/query-service.ts";
import { searchResultJson, sinceFrame, sinceResultJson } from "../../src/search/result-json.ts";
import { type StoredResult, searchEtag, sinceEtag } from "../build/result-store.ts";
import type { Snapshot } from "../build/snapshot.ts";
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
 * sends the result from the snapshot's result store (sidecar/build/result-store.ts), filling it on
 * a miss. Each kept body is exactly what the uncached path would send (test/sidecar/http/search-api.test.ts),
 * compressed once per entry and coding.
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
  baseUrl: string;
}

/** The coding a body of `length` bytes is sent in: small bodies stay identity, whatever was accepted. */
function codingFor(accepted: Coding, length: number): Coding {
  return length < MIN_COMPRESS_BYTES ? "identity" : accepted;
}

/**
 * The body of `entry` in `coding`, compressed once and kept in the snapshot's result store as a
 * variant of the entry (a variant past the store's per-entry bound is sent and not kept).
 */
function variant(s: Snapshot, key: string, entry: StoredResult & { body: Buffer }, coding: Coding): Buffer {
  if (coding === "identity") return entry.body;
  const known = entry.variants?.get(coding);
  if (known) return known;
  const body = compress(entry.body, coding, "dynamic");
  const latest = s.results.get(key) ?? entry;
  s.results.set(key, { ...latest, variants: new Map([...(latest.variants ?? []), [coding, body]]) });
  return body;
}

function send(
  req: Request,
  res: Response,
  etag: string,
  coding: Coding,
  body: () => Buffer,
  s: Snapshot,
  since: boolean,
) {
  writeRepresentation(
    req,
    res,
    {
      etag: variantEtag(etag, coding),
      coding,
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
 * mount directly: a nested router would add a dispatch layer to the hottest requests. Both answer
 * from the snapshot's result store (`Snapshot.results`), filling it on a miss.
 */
export function reviewRoutes({ current, baseUrl }: ReviewRoutesDeps): {
  guard: RequestHandler;
  search: RequestHandler;
  since: RequestHandler<{ date: string }>;
} {
  const search: RequestHandler = (req, res) => {
    const snapshot = current(res);
    const at = req.originalUrl.indexOf("?");
    // The query string as sent: a repeated one skips validation entirely.
    const outcome = snapshot.results.query(at < 0 ? "?" : req.originalUrl.slice(at), () =>
      parseSearch(snapshot.index, rawQuery(req.originalUrl)),
    );
    if (!outcome.ok) throw invalidQuery(outcome.issues);
    const q = outcome.value;
    const key = `search?${q.key}`;
    let entry = snapshot.results.get(key);
    if (!entry?.body) {
      const body = searchResultJson(runSearch(snapshot.index, q, baseUrl));
      entry = { ...entry, etag: searchEtag(snapshot.version, baseUrl, q.key), body };
      snapshot.results.set(key, entry);
    }
    const withBody = entry as StoredResult & { body: Buffer };
    const coding = codingFor(negotiateCoding(req.headers["accept-encoding"], DYNAMIC_CODINGS), withBody.body.length);
    send(req, res, entry.etag, coding, () => variant(snapshot, key, withBody, coding), snapshot, false);
  };

  const since: RequestHandler<{ date: string }> = (req, res) => {
    const snapshot = current(res);
    const date = req.params.date;
    const plain = !req.originalUrl.includes("?");
    const parse = (): SinceQuery => {
      const outcome = parseSince(snapshot.index, date, plain ? {} : rawQuery(req.originalUrl));
      if (!outcome.ok) throw invalidQuery(outcome.issues);
      return outcome.value;
    };
    // Entries are kept only for dates that passed validation, under the date as given: a date
    // whose body this build has made needs no parsing; one known by its ETag alone is parsed again
    // (a binary search) for the body's length, which decides the coding.
    const key = `since/${date}`;
    let entry = plain ? snapshot.results.get(key) : undefined;
    let q: SinceQuery | undefined;
    if (!entry) {
      q = parse();
      // The ETag is known without the body (see `Snapshot.chain`), so a 304 never builds it.
      entry = snapshot.results.get(key) ?? { etag: sinceEtag(date, snapshot.chain[q.count] as string) };
      snapshot.results.set(key, entry);
    }
    const known = entry;
    const length = known.body?.length ?? sinceBodyLength(snapshot, q ?? parse());
    const coding = codingFor(negotiateCoding(req.headers["accept-encoding"], DYNAMIC_CODINGS), length);
    const body = () => {
      let withBody = known.body ? (known as StoredResult & { body: Buffer }) : undefined;
      if (!withBody) {
        const latest = snapshot.results.get(key) ?? known;
        withBody = { ...latest, body: latest.body ?? sinceResultJson(runSince(snapshot.index, q ?? parse())) };
        snapshot.results.set(key, withBody);
      }
      return variant(snapshot, key, withBody, coding);
    };
    send(req, res, known.etag, coding, body, snapshot, true);
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
