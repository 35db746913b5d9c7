import { hash } from "node:crypto";
import type { ReviewRecord } from "../content/records.ts";

/**
 * A digest of one review's record: everything a page can show of it. The cache keys of the review
 * pages and the month pages (review-page-props.ts, month-page-props.ts), which show whole records,
 * name a review by it, so each record is serialised and hashed once per build, not once per key.
 * Records are built once per build and never changed, so the memo is by identity.
 */
const digests = new WeakMap<ReviewRecord, string>();

export function recordDigest(r: ReviewRecord): string {
  let digest = digests.get(r);
  if (digest === undefined) {
    digest = hash("sha256", JSON.stringify(r), "base64");
    digests.set(r, digest);
  }
  return digest;
}
