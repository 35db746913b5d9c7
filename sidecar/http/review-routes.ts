import { type Response, Router } from "express";
import { isCalendarDate } from "../../src/content/dates.ts";
import type { ReviewRecord } from "../../src/content/records.ts";
import { strongEtag } from "../../src/http-headers/manifest.ts";
import type { SearchResult } from "../../src/search/search-index.ts";
import { parseSearchParams, type QueryIssue } from "../../src/search/search-query.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { HttpError } from "./error.ts";
import { sendResource } from "./representation.ts";

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
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return new HttpError(400, "invalid_query", `Invalid query: ${summary}`, { issues });
}

/** The search core behind both front doors (HTTP and MCP). Throws the 400 `HttpError` on bad input. */
export function runSearch(snapshot: Snapshot, input: Record<string, unknown>, baseUrl: string): SearchResult {
  const { business, aspects } = snapshot.index.dataset;
  const parsed = parseSearchParams(input, business, aspects);
  if (!parsed.ok) throw invalidQuery(parsed.issues);
  return snapshot.index.search(parsed.query, baseUrl);
}

/**
 * Each review's JSON as UTF-8 bytes, made on first use. Records are immutable and belong to one
 * snapshot, so the bytes stay valid for the record's life and go with it. Serialising and encoding
 * ~1 KB per review on every request was the largest part of a search request's CPU
 * (docs/benchmarks.md).
 */
const reviewJson = new WeakMap<ReviewRecord, Buffer>();
const COMMA = Buffer.from(",");

function jsonOf(review: ReviewRecord): Buffer {
  let json = reviewJson.get(review);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(review));
    reviewJson.set(review, json);
  }
  return json;
}

/** Exactly the bytes of `JSON.stringify(result)` (same keys, same order), reviews from the cache. */
export function searchResultBody(result: SearchResult): Buffer {
  const { count, total, limit, offset, next } = result;
  const parts: Buffer[] = [Buffer.from('{"reviews":[')];
  result.reviews.forEach((r, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(jsonOf(r));
  });
  parts.push(
    Buffer.from(
      `],"count":${count},"total":${total},"limit":${limit},"offset":${offset},"next":${JSON.stringify(next)}}`,
    ),
  );
  return Buffer.concat(parts);
}

export interface SinceResult {
  since: string;
  count: number;
  reviews: SearchResult["reviews"];
}

const SINCE_DATE_HINT = "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05";

export function validateSinceDate(date: string): void {
  if (!isCalendarDate(date)) throw invalidQuery([{ path: "date", value: date, message: SINCE_DATE_HINT }]);
}

export function runSince(snapshot: Snapshot, date: string): SinceResult {
  validateSinceDate(date);
  const k = snapshot.index.countOnOrAfter(date);
  return { since: date, count: k, reviews: snapshot.index.dataset.reviews.slice(0, k) };
}

/** ETag of since/{date}: see `Snapshot.chain`. */
export function sinceEtag(snapshot: Snapshot, date: string): string {
  const k = snapshot.index.countOnOrAfter(date);
  return strongEtag(`${date}\n${snapshot.chain[k]}`);
}

/** `current(res)` is the snapshot the request holds, so one response never mixes two builds. */
export function reviewsRouter(current: (res: Response) => Snapshot, baseUrl: string): Router {
  const router = Router();
  // Express would answer a date that is not valid percent-encoding (`%`, `%zz`) with its own 400
  // before the route runs; report it like any other bad date instead.
  router.use((req, _res, next) => {
    const prefix = "/api/reviews/since/";
    if (!req.path.startsWith(prefix)) return next();
    const raw = req.path.slice(prefix.length);
    try {
      decodeURIComponent(raw);
    } catch {
      throw invalidQuery([
        { path: "date", value: raw, message: `${SINCE_DATE_HINT}; "${raw}" is not valid percent-encoding` },
      ]);
    }
    next();
  });
  router.get("/api/reviews/search", (req, res) => {
    const snapshot = current(res);
    const result = runSearch(snapshot, rawQuery(req.originalUrl), baseUrl);
    sendResource(req, res, {
      body: searchResultBody(result),
      // The body is a function of the dataset and the URL, so they make the validator without
      // hashing ~20 KB per request; it changes whenever the dataset does.
      etag: strongEtag(`${snapshot.version}\n${req.originalUrl}`),
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=60",
    });
  });
  router.get("/api/reviews/since/:date", (req, res) => {
    const snapshot = current(res);
    const date = req.params.date;
    validateSinceDate(date);
    const extra = Object.entries(rawQuery(req.originalUrl));
    if (extra.length > 0) {
      throw invalidQuery(
        extra.map(([k, value]) => ({ path: k, value, message: "unknown parameter; since takes no query parameters" })),
      );
    }
    const etag = sinceEtag(snapshot, date);
    // The body is only built when the conditional check fails; sendResource re-checks with the variant tag.
    let body: Buffer | undefined;
    sendResource(req, res, {
      get body() {
        body ??= Buffer.from(JSON.stringify(runSince(snapshot, date)));
        return body;
      },
      etag,
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=60",
      lastModifiedMs: snapshot.lastModifiedMs,
    });
  });
  return router;
}
