import querystring from "node:querystring";
import type { Request, RequestHandler, Response } from "express";
import type { QueryIssue } from "../../src/search/query.ts";
import type { SinceQuery } from "../../src/search/query-service.ts";
import {
  invalidQueryBody,
  parseSince,
  runSearch,
  runSince,
  sinceParameterIssues,
} from "../../src/search/query-service.ts";
import { type Holding, ownCopy, searchResultJson, sinceFrame, sinceResultJson } from "../../src/search/result-json.ts";
import { codeIdentity } from "../build/code-identity.ts";
import { searchEtag, sinceEtag } from "../build/result-store.ts";
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
import { readOnly } from "./methods.ts";
import { parseSearchQuery, rawQuery } from "./query-string.ts";
import { writeRepresentation } from "./representation.ts";

/**
 * The HTTP adapter of the query service: reads the query string, turns issues into a 400, and
 * sends the result from the snapshot's result store (sidecar/build/result-store.ts), filling it on
 * a miss. Each kept body is exactly what the uncached path would send (test/sidecar/http/search-api.test.ts),
 * compressed once per entry and coding. An entry keeps what was sent: the compressed variant of a
 * body sent compressed (its JSON assembled in a reused buffer), the identity body once a client
 * took it identity.
 */

export function invalidQuery(issues: QueryIssue[]): HttpError {
  const { error, message, issues: listed } = invalidQueryBody(issues);
  return new HttpError(400, error, message, { issues: listed });
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
 * The bytes of `key` in `coding`, kept in the entry or made and kept, within the request that calls
 * it (a transient body lives until the next one is made). `json` makes the identity body as held;
 * `made` is that body already made transient. A body that is only compressed is never kept.
 */
function coded(
  s: Snapshot,
  key: string,
  etag: string,
  coding: Coding,
  json: (h: Holding) => Buffer,
  made?: Buffer,
): Buffer {
  const latest = s.results.get(key);
  if (coding === "identity") {
    if (latest?.body) return latest.body;
    const body = made ? ownCopy(made) : json("kept");
    s.results.set(key, { ...latest, etag, body });
    return body;
  }
  const known = latest?.variants?.get(coding);
  if (known) return known;
  const body = compress(latest?.body ?? made ?? json("transient"), coding, "dynamic");
  // A variant past the store's per-entry bound is sent and not kept.
  s.results.set(key, { ...latest, etag, variants: new Map([...(latest?.variants ?? []), [coding, body]]) });
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
  codeIdentity(); // The answers' ETags hash it: read once here, not in the first request.
  const search: RequestHandler = (req, res) => {
    const snapshot = current(res);
    const at = req.originalUrl.indexOf("?");
    // The query string as sent: a repeated one skips validation entirely.
    const outcome = snapshot.results.query(at < 0 ? "?" : req.originalUrl.slice(at), () =>
      parseSearchQuery(snapshot.index, req.originalUrl),
    );
    if (!outcome.ok) throw invalidQuery(outcome.issues);
    const q = outcome.value;
    const key = `search?${q.key}`;
    const entry = snapshot.results.get(key);
    const etag = entry?.etag ?? searchEtag(snapshot.version, baseUrl, q.key);
    const accepted = negotiateCoding(req.headers["accept-encoding"], DYNAMIC_CODINGS);
    const json = (h: Holding) => searchResultJson(runSearch(snapshot.index, q, baseUrl), h);
    // A variant is kept only for a body of MIN_COMPRESS_BYTES or more, so having it settles the coding.
    const kept = accepted === "identity" ? entry?.body : entry?.variants?.get(accepted);
    let coding: Coding = accepted;
    let bytes = () => kept as Buffer;
    if (!kept) {
      // Without the body, its length (which decides the coding) is known only once it is made.
      const made = entry?.body ? undefined : json("transient");
      coding = codingFor(accepted, (entry?.body ?? made)?.length ?? 0);
      bytes = () => coded(snapshot, key, etag, coding, json, made);
    }
    send(req, res, etag, coding, bytes, snapshot, false);
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
    const body = () =>
      coded(snapshot, key, known.etag, coding, (h) => sinceResultJson(runSince(snapshot.index, q ?? parse()), h));
    send(req, res, known.etag, coding, body, snapshot, true);
  };
  // Express would answer a date that is not valid percent-encoding (`%`, `%zz`) with its own 400
  // before the route runs; report it like any other bad date instead.
  const guard: RequestHandler = (req, res, next) => {
    const prefix = "/api/reviews/since/";
    const rest = req.path.slice(prefix.length);
    // Only the route's own paths (one segment, as `:date` matches); below one is an unknown path.
    if (!req.path.startsWith(prefix) || !/^[^/]+\/?$/.test(rest)) return next();
    // `:date` leaves out a closing slash (since/2024-02-30/ echoes 2024-02-30), so the echo here does.
    const raw = rest.replace(/\/$/, "");
    // Only a GET or HEAD reads the date: any other method gets the 405 (OPTIONS its 204) of every date.
    if (req.method !== "GET" && req.method !== "HEAD") return readOnly(req, res, next);
    try {
      decodeURIComponent(raw);
    } catch {
      const hint = "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05";
      // The query parameters are reported too, as the route reports them beside any other bad date.
      const extra = sinceParameterIssues(rawQuery(req.originalUrl));
      if (/%(?![0-9A-Fa-f]{2})/.test(raw)) {
        const message = `${hint}; "${raw}" is not valid percent-encoding`;
        throw invalidQuery([{ path: "date", value: raw, message }, ...extra]);
      }
      // Well-formed escapes of bytes that are not UTF-8: decoded by Express's own query parser's
      // `unescape`, so they are echoed with U+FFFD exactly as search echoes them.
      const value = querystring.unescape(raw);
      throw invalidQuery([{ path: "date", value, message: `${hint}; "${value}" is not valid UTF-8` }, ...extra]);
    }
    next();
  };
  return { guard, search, since };
}
