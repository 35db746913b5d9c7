import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import type { ParamSource } from "../../../src/search/query.ts";
import {
  invalidQueryBody,
  parseSearch,
  parseSince,
  reviewsSince,
  searchReviews,
} from "../../../src/search/query-service.ts";
import { createSearchIndex, type SearchIndex } from "../../../src/search/review-index.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { referenceSearch, searchParamsArbitrary } from "../../helpers/search-reference.ts";

const CONTENT = PROJECT_CONTENT;
const BASE = "https://reviews.test";
let dataset: ReviewsDataset;
let index: SearchIndex;

beforeAll(async () => {
  dataset = buildDataset(await loadContent(CONTENT, { now: new Date("2030-01-01T00:00:00Z") }), BASE);
  index = createSearchIndex(dataset);
});

const search = (p: Record<string, unknown>) => {
  const out = searchReviews(index, p, "query-string", BASE);
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value;
};
const issuesOf = (p: Record<string, unknown>, source: ParamSource = "query-string") => {
  const out = searchReviews(index, p, source, BASE);
  if (out.ok) throw new Error(`expected issues for ${JSON.stringify(p)}`);
  return out.issues;
};
const keyOf = (p: Record<string, unknown>) => {
  const out = parseSearch(index, p, "query-string");
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value.key;
};

describe("search service", () => {
  it("matches a straightforward reference filter for random parameter combinations", () => {
    fc.assert(
      fc.property(searchParamsArbitrary(dataset.business), (p) => {
        const got = search(p);
        const ref = referenceSearch(dataset.reviews, dataset.business, p);
        expect(got.total).toBe(ref.all.length);
        expect(got.reviews).toEqual(ref.page);
        expect(got.count).toBe(ref.page.length);
        if (ref.offset + ref.limit < ref.all.length) {
          const next = new URL(got.next as string);
          expect(next.origin + next.pathname).toBe(`${BASE}/api/reviews/search`);
          expect(next.searchParams.get("offset")).toBe(String(ref.offset + ref.limit));
          // Following `next` continues exactly where this page ended.
          const follow = search(Object.fromEntries(next.searchParams));
          expect(follow.reviews.map((r) => r.id)).toEqual(
            ref.all.slice(ref.offset + ref.limit, ref.offset + 2 * ref.limit).map((r) => r.id),
          );
        } else {
          expect(got.next).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    { rating: "4" },
    { min_rating: "4" },
    { min_rating: "1" },
    { since: "2026-01-01" },
    { until: "2023-06-30" },
    { query: "front desk" },
    { mentions_technician: "Dr. Bell" },
    { mentions_service: "massage-therapy" },
  ] as Record<string, string>[])("answers a single filter %o exactly like the reference", (p) => {
    const got = search({ ...p, limit: "100" });
    const ref = referenceSearch(dataset.reviews, dataset.business, { ...p, limit: "100" });
    expect(got.total).toBe(ref.all.length);
    expect(got.reviews.map((r) => r.id)).toEqual(ref.page.map((r) => r.id));
  });

  it("accepts JSON values as MCP sends them, with the same result as strings", () => {
    expect(search({ rating: 5, limit: 3 })).toEqual(search({ rating: "5", limit: "3" }));
  });

  it.each([
    [{ rating: "6" }, "rating"],
    [{ min_rating: "five" }, "min_rating"],
    [{ since: "2024-02-30" }, "since"],
    [{ limit: "101" }, "limit"],
    [{ offset: "-1" }, "offset"],
    [{ query: "a".repeat(201) }, "query"],
    [{ mentions_technician: "Dr. Nobody" }, "mentions_technician"],
    [{ mentions_service: "reiki" }, "mentions_service"],
    [{ ratng: "5" }, "ratng"],
  ])("reports %o naming the parameter and the value", (p, param) => {
    const issues = issuesOf(p);
    expect(issues.find((i) => i.path === param)?.value).toBe((p as Record<string, unknown>)[param]);
    expect(invalidQueryBody(issues).message).toContain(param);
  });

  it("reports a limit or offset of any size past its bound exactly once", () => {
    expect(issuesOf({ limit: "9007199254740993" })).toEqual([
      { path: "limit", value: "9007199254740993", message: "expected an integer from 1 to 100" },
    ]);
    // 2^53 and 1e20 are integers, but past the range, which the message states.
    for (const offset of ["9007199254740992", "1e20", 1e20]) {
      expect(issuesOf({ offset })).toEqual([
        { path: "offset", value: offset, message: "expected an integer from 0 to 9007199254740991" },
      ]);
    }
    expect(search({ offset: "9007199254740991" }).reviews).toEqual([]);
    // Past 2^53 zod's integer check and the range check both failed: the same issue twice.
    const tooBig = fc.oneof(
      fc.record({ param: fc.constant("limit"), n: fc.bigInt({ min: 101n, max: 10n ** 30n }) }),
      fc.record({ param: fc.constant("offset"), n: fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }) }),
    );
    fc.assert(
      fc.property(tooBig, fc.boolean(), ({ param, n }, asString) => {
        const issues = issuesOf({ [param]: asString ? String(n) : Number(n) });
        expect(issues.map((i) => i.path)).toEqual([param]);
      }),
    );
  });

  it("reports a repeated query parameter, but an array in JSON input as a value of the wrong type", () => {
    expect(issuesOf({ rating: ["5", "4"] })).toEqual([
      { path: "rating", value: ["5", "4"], message: "given 2 times; give it at most once" },
    ]);
    for (const rating of [[5], [], ["5"]]) {
      expect(issuesOf({ rating }, "json")).toEqual([
        { path: "rating", value: rating, message: "expected an integer from 1 to 5" },
      ]);
    }
    expect(issuesOf({ query: ["neck"] }, "json")[0]?.message).toBe("expected a search text as a string");
  });

  it("takes since after until as an empty range, and lists valid technicians and services", () => {
    const empty = searchReviews(index, { since: "2025-01-02", until: "2025-01-01" }, "query-string", BASE);
    expect(empty.ok && empty.value.total).toBe(0);
    expect(issuesOf({ mentions_technician: "Dr. Who" })[0]?.message).toContain("Dr. Anika Patel");
    expect(issuesOf({ mentions_service: "reiki" })[0]?.message).toContain("massage-therapy");
  });

  it("lists an unknown service and technician beside another parameter's error (every issue)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom({ rating: "9" }, { limit: "0" }, { since: "2025-02-30" }, { sort: "new" }, { sentiment: "x" }),
        fc.subarray(["mentions_service", "mentions_technician"] as const, { minLength: 1 }),
        (other, names) => {
          const bad = Object.fromEntries(names.map((n) => [n, "nobody-here"]));
          const paths = issuesOf({ ...other, ...bad }).map((i) => i.path);
          for (const n of [...Object.keys(other), ...names]) expect(paths, n).toContain(n);
        },
      ),
    );
  });
});

describe("canonical query key", () => {
  it("is the same for equivalent queries", () => {
    const key = keyOf({ rating: "5", limit: "2" });
    expect(keyOf({ limit: "2", rating: "5" })).toBe(key);
    expect(keyOf({ limit: 2, rating: 5, offset: 0 })).toBe(key);
    expect(keyOf({ mentions_technician: "Dr. Patel" })).toBe(keyOf({ mentions_technician: "anika-patel" }));
    expect(keyOf({ query: "  Front   DESK " })).toBe(keyOf({ query: "front desk" }));
    expect(keyOf({ query: "   " })).toBe(keyOf({}));
    expect(keyOf({ min_rating: "4.0" })).toBe(keyOf({ min_rating: "4" }));
    expect(keyOf({})).toBe(keyOf({ limit: "20", offset: "0" }));
  });

  it("differs whenever the result can differ", () => {
    const keys = [{}, { rating: "5" }, { rating: "4" }, { offset: "1" }, { limit: "21" }, { query: "back" }].map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("gives equal results for equal keys over random parameter orders", () => {
    fc.assert(
      fc.property(searchParamsArbitrary(dataset.business), fc.integer(), (p, seed) => {
        const entries = Object.entries(p);
        const shuffled = Object.fromEntries(
          entries
            .map((e, i) => [e, (i * 7919 + seed) % 101] as const)
            .sort((a, b) => a[1] - b[1])
            .map(([e]) => e),
        );
        expect(keyOf(shuffled)).toBe(keyOf(p));
        expect(search(shuffled)).toEqual(search(p));
      }),
      { numRuns: 100 },
    );
  });
});

describe("since service", () => {
  it("returns the reviews dated on or after the date, newest first", () => {
    const out = reviewsSince(index, "2026-06-01");
    const expected = dataset.reviews.filter((r) => r.date >= "2026-06-01");
    expect(out).toEqual({ ok: true, value: { since: "2026-06-01", count: expected.length, reviews: expected } });
  });

  it("reports a bad date and any parameter, naming each", () => {
    for (const d of ["2024-1-5", "2024-02-30", "yesterday", 20240105]) {
      const out = reviewsSince(index, d);
      expect(out.ok ? [] : out.issues).toEqual([expect.objectContaining({ path: "date", value: d })]);
    }
    const extra = parseSince(index, "2024-01-05", { limit: "3" });
    expect(extra.ok ? [] : extra.issues).toEqual([expect.objectContaining({ path: "limit", value: "3" })]);
  });
});
