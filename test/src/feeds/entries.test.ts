import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ReviewRecord } from "../../../src/content/records.ts";
import { FEED_SIZE, feedItems } from "../../../src/feeds/entries.ts";

/** The order the feeds promise, written out plainly: newest `published_at` first, ties in the dataset's order. */
function reference(reviews: readonly ReviewRecord[]): ReviewRecord[] {
  return reviews
    .map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => Date.parse(b.published_at) - Date.parse(a.published_at) || i - j)
    .slice(0, FEED_SIZE)
    .map(([r]) => r);
}

// Times a few minutes apart, written with different offsets, so that equal instants in different
// forms and ties come up often.
const publishedAt = fc
  .record({ minutes: fc.integer({ min: 0, max: 40 }), offset: fc.constantFrom("Z", "+00:00", "+02:00", "-05:30") })
  .map(({ minutes, offset }) => {
    const local = new Date(Date.UTC(2026, 0, 1, 12, minutes));
    const shift = offset === "+02:00" ? 120 : offset === "-05:30" ? -330 : 0;
    local.setUTCMinutes(local.getUTCMinutes() + shift);
    return `${local.toISOString().slice(0, 19)}${offset}`;
  });

describe("feedItems", () => {
  it("takes the FEED_SIZE most recently published reviews, newest first, ties in the dataset's order", () => {
    fc.assert(
      fc.property(fc.array(publishedAt, { maxLength: 120 }), (times) => {
        const reviews = times.map((published_at, i) => ({ id: `r${i}`, published_at }) as ReviewRecord);
        expect(feedItems(reviews).map((r) => r.id)).toEqual(reference(reviews).map((r) => r.id));
      }),
      { numRuns: 300 },
    );
  });
});
