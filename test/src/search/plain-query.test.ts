import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { parsePlainSearchParams } from "../../../src/search/plain-query.ts";
import { parseSearchParams, SEARCH_PARAMS } from "../../../src/search/query.ts";
import { searchParamsArbitrary } from "../../helpers/search-reference.ts";

const CONTENT = path.resolve(import.meta.dirname, "../../../content");
let dataset: ReviewsDataset;

beforeAll(async () => {
  dataset = buildDataset(await loadContent(CONTENT, { now: new Date("2030-01-01T00:00:00Z") }), "https://x.test");
});

const full = (input: Record<string, unknown>) => parseSearchParams(input, dataset.business, dataset.aspects);
const plain = (input: Record<string, unknown>) => parsePlainSearchParams(input, dataset.business, dataset.aspects);

/** Values near every edge the schema draws: valid, padded, out of range, malformed, non-string. */
function anyValue(): fc.Arbitrary<unknown> {
  const aspects = dataset.aspects.map((a) => a.id);
  return fc.oneof(
    fc.constantFrom(
      "0",
      "1",
      "5",
      "6",
      "05",
      " 5",
      "5 ",
      "-1",
      "4.5",
      "4.50",
      "5.0",
      "5.000001",
      "0.9",
      "1.",
      ".5",
      "1e0",
    ),
    fc.constantFrom("2024-02-29", "2023-02-29", "2024-13-01", "2024-1-05", "2025-12-31", " 2025-01-01", ""),
    fc.constantFrom("20", "100", "101", "020", "0", "1000000000000000", "999999999999999", "00"),
    fc.constantFrom("Dr. Patel", "anika-patel", "DR PATEL", "Dr. Who", "massage-therapy", " MASSAGE-THERAPY ", "reiki"),
    fc.constantFrom(...aspects, " BILLING ", "nope", "positive", "negative", "mixed", "Positive"),
    fc.constantFrom("front desk", "  Front  DESK ", "   ", "a".repeat(201), `${"a ".repeat(100)}`),
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -2, max: 120 }),
    fc.constant(undefined),
    fc.array(fc.constantFrom("5", "4"), { minLength: 2, maxLength: 2 }),
  );
}

/** Every parameter, and one unknown name. */
const NAMES = [...SEARCH_PARAMS, "ratng"];

describe("plain query fast path", () => {
  it("returns either nothing or exactly the query the full validation returns", () => {
    const input = fc.dictionary(fc.constantFrom(...NAMES), anyValue(), { maxKeys: 6 });
    let taken = 0;
    fc.assert(
      fc.property(input, (p) => {
        const fast = plain(p);
        if (fast === undefined) return;
        taken++;
        const slow = full(p);
        expect(slow.ok).toBe(true);
        expect(fast).toEqual(slow.ok ? slow.query : undefined);
      }),
      { numRuns: 2000 },
    );
    // The property is only worth something if the fast path answers a fair share of inputs.
    expect(taken).toBeGreaterThan(100);
  });

  it("answers the parameters links and browsers send, identically", () => {
    fc.assert(
      fc.property(searchParamsArbitrary(dataset.business), (p) => {
        const slow = full(p);
        const fast = plain(p);
        if (!slow.ok) return;
        if (fast) expect(fast).toEqual(slow.query);
      }),
      { numRuns: 300 },
    );
    const common = {
      rating: "5",
      since: "2025-01-01",
      until: "2025-06-30",
      query: "Front Desk",
      limit: "50",
      offset: "100",
    };
    expect(plain(common)).toEqual((full(common) as { query: unknown }).query);
    expect(plain({ mentions_technician: "Dr. Patel", min_rating: "4.5" })?.technician).toBe("anika-patel");
  });

  it("leaves every invalid input to the full validation", () => {
    for (const p of [
      { rating: "6" },
      { rating: ["5", "4"] },
      { ratng: "5" },
      { sentiment: "negative" },
      { mentions_service: "Massage-Therapy" },
      { limit: "05" },
      { query: "a".repeat(201) },
      { limit: "101" },
      { mentions_service: "reiki" },
    ]) {
      expect(plain(p)).toBeUndefined();
      expect(full(p).ok).toBe(false);
    }
  });
});
