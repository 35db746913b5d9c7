import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewRecord, ReviewsDataset } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { datasetJsonPieces } from "../../../src/site/dataset-json.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
const fixture = buildDataset(content, "https://reviews.example");

/** What `/reviews.json` was before it was written in pieces: the reference. */
const reference = (d: ReviewsDataset) => `${JSON.stringify(d, null, 2)}\n`;

/** Any text, including line breaks, quotes, backslashes, U+2028 and characters outside Latin-1. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\n", '"', "\\", "\u2028", "é", "😀", "\t"),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
});

const review: fc.Arbitrary<ReviewRecord> = fc.record({
  id: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
  url: text,
  date: fc.constantFrom("2024-03-14", "2025-01-01"),
  published_at: fc.constant("2024-03-14T10:00:00Z"),
  rating: fc.integer({ min: 1, max: 5 }),
  author: text,
  title: fc.option(text, { nil: null }),
  text,
  source: fc.record({ platform: fc.constantFrom("google", "direct"), url: fc.option(text, { nil: null }) }),
  verification: fc.record({ method: fc.constant("invoice"), verified_on: fc.constant("2024-03-14") }),
  technicians: fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
  services: fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
  service_areas: fc.constant([]),
  response: fc.option(fc.record({ date: fc.constant("2024-03-15"), text }), { nil: null }),
  log_index: fc.nat(),
  log_nonce: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("base64")),
  aspects: fc.array(
    fc.record({
      id: fc.stringMatching(/^[a-z]{1,8}$/),
      sentiment: fc.constantFrom("positive", "neutral", "negative"),
      score: fc.double({ min: -1, max: 1, noNaN: true }),
      source: fc.constantFrom("machine", "editor"),
    }),
    { maxLength: 3 },
  ),
}) as fc.Arbitrary<ReviewRecord>;

/** The pieces joined and encoded, as the build writes them (src/integrations/reviews-json.ts). */
const joined = (d: ReviewsDataset) => Buffer.from([...datasetJsonPieces(d)].join(""), "utf8");

describe("/reviews.json in pieces", () => {
  it("is byte for byte JSON.stringify(dataset, null, 2) plus a newline, for any reviews", () => {
    fc.assert(
      fc.property(fc.array(review, { maxLength: 12 }), (reviews) => {
        const d: ReviewsDataset = { ...fixture, reviews };
        expect(joined(d)).toEqual(Buffer.from(reference(d)));
      }),
      { numRuns: 200 },
    );
  });

  it("matches for the fixture, for no reviews, and for a dataset larger than one piece", () => {
    const many = Array.from(
      { length: 150 },
      (_, i) =>
        fixture.reviews.map((r) => ({
          ...r,
          id: `${r.id}-${i}`,
          text: `${r.text} ✓ ${"x".repeat(i)}`,
        })) as ReviewRecord[],
    ).flat();
    const big: ReviewsDataset = { ...fixture, reviews: many };
    const pieces = [...datasetJsonPieces(big)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(reference(big));
    // Buffer.equals: a deep equality walks a megabyte byte by byte.
    expect(joined(big).equals(Buffer.from(reference(big)))).toBe(true);
    for (const d of [fixture, { ...fixture, reviews: [] }]) expect(joined(d)).toEqual(Buffer.from(reference(d)));
  });
});
