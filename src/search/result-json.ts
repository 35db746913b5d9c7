import type { SearchResult, SinceResult } from "../api/schemas.ts";
import type { ReviewRecord } from "../content/records.ts";

/**
 * JSON bodies of search and since results, byte-for-byte `JSON.stringify(result)` (same keys, same
 * order), joined from each review's JSON made once: serialising every review on every request
 * would be most of a search request's CPU.
 *
 * Records are immutable and belong to one snapshot, so a review's bytes, held in a `WeakMap` keyed
 * by the record, stay valid for the record's life and are dropped with it.
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

function join(head: string, reviews: readonly ReviewRecord[], tail: string): Buffer {
  const parts: Buffer[] = [Buffer.from(head)];
  reviews.forEach((r, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(reviewJson(r));
  });
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}

export function searchResultJson(result: SearchResult): Buffer {
  const { count, total, limit, offset, next } = result;
  return join(
    '{"reviews":[',
    result.reviews,
    `],"count":${count},"total":${total},"limit":${limit},"offset":${offset},"next":${JSON.stringify(next)}}`,
  );
}

/** The head and tail around the reviews of a since body, also used to know its length in advance. */
export function sinceFrame(since: string, count: number): { head: string; tail: string } {
  return { head: `{"since":${JSON.stringify(since)},"count":${count},"reviews":[`, tail: "]}" };
}

export function sinceResultJson(result: SinceResult): Buffer {
  const { head, tail } = sinceFrame(result.since, result.count);
  return join(head, result.reviews, tail);
}
