import type { SearchResult, SinceResult } from "../api/schemas.ts";
import type { ReviewRecord } from "../content/records.ts";

/**
 * JSON bodies of search and since results, byte-for-byte `JSON.stringify(result)` (same keys, same
 * order), joined from each review's JSON made once: serialising every review on every request
 * would be most of a search request's CPU.
 *
 * Records are immutable (a snapshot may keep a record of the one before it while the review's bytes
 * are unchanged: sidecar/build/dataset-parse.ts), so a review's bytes, held in a `WeakMap` keyed by
 * the record, stay valid for the record's life and are dropped with it.
 */
const reviewJsonBytes = new WeakMap<ReviewRecord, Buffer>();
const COMMA = Buffer.from(",");

/**
 * `JSON.stringify(review)` as UTF-8, made once per record. The snapshot asks for every review's
 * bytes when it loads (to hash and measure them), so by the time a search runs, no review is
 * serialised again: a cache miss only joins bytes that already exist.
 */
export function reviewJson(review: ReviewRecord): Buffer {
  let json = reviewJsonBytes.get(review);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(review));
    reviewJsonBytes.set(review, json);
  }
  return json;
}

/**
 * How joined bytes are held: `"kept"` in a buffer of their own; `"transient"` in one buffer that the
 * next transient call overwrites, for a body compressed at once and never kept, so that a miss
 * allocates no identity body (its external memory started V8's full collections:
 * docs/benchmarks-log.md, "Distinct queries on a quiet machine").
 */
export type Holding = "kept" | "transient";

/** Transient bodies up to this size reuse one buffer; a larger one (a long since/{date}) gets its own. */
const SCRATCH_MAX = 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** A copy of `body` in a buffer of its own (see `join`), for a transient body that is to be kept. */
export function ownCopy(body: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(body.length);
  body.copy(out);
  return out;
}

function join(head: string, reviews: readonly ReviewRecord[], tail: string, holding: Holding): Buffer {
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, reviews.length - 1);
  for (const r of reviews) length += reviewJson(r).length;
  let out: Buffer;
  if (holding === "transient" && length <= SCRATCH_MAX) {
    if (length > scratch.length) {
      scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(length, 2 * scratch.length)));
    }
    out = scratch;
  } else {
    // A buffer of its own, not a slice of Node's pool that a kept body would pin whole.
    out = Buffer.allocUnsafeSlow(length);
  }
  let at = out.write(head, 0);
  reviews.forEach((r, i) => {
    if (i > 0) at += COMMA.copy(out, at);
    at += reviewJson(r).copy(out, at);
  });
  at += out.write(tail, at);
  return out.subarray(0, at);
}

export function searchResultJson(result: SearchResult, holding: Holding = "kept"): Buffer {
  const { count, total, limit, offset, next } = result;
  return join(
    '{"reviews":[',
    result.reviews,
    `],"count":${count},"total":${total},"limit":${limit},"offset":${offset},"next":${JSON.stringify(next)}}`,
    holding,
  );
}

/** The head and tail around the reviews of a since body, also used to know its length in advance. */
export function sinceFrame(since: string, count: number): { head: string; tail: string } {
  return { head: `{"since":${JSON.stringify(since)},"count":${count},"reviews":[`, tail: "]}" };
}

export function sinceResultJson(result: SinceResult, holding: Holding = "kept"): Buffer {
  const { head, tail } = sinceFrame(result.since, result.count);
  return join(head, result.reviews, tail, holding);
}
