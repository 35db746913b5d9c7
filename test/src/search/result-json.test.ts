import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../../src/api/schemas.ts";
import { buildDataset } from "../../../src/content/dataset.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { ownCopy, searchResultJson, sinceResultJson } from "../../../src/search/result-json.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
const { reviews } = buildDataset(content, "https://reviews.example");

const page = fc.record({
  start: fc.nat({ max: reviews.length }),
  count: fc.nat({ max: reviews.length }),
  next: fc.option(fc.webUrl(), { nil: null }),
});

function result({ start, count, next }: { start: number; count: number; next: string | null }): SearchResult {
  const slice = reviews.slice(start, start + count);
  return { reviews: slice, count: slice.length, total: reviews.length, limit: count, offset: start, next };
}

describe("result JSON", () => {
  it("is JSON.stringify of the result, kept or transient", () => {
    fc.assert(
      fc.property(page, (p) => {
        const r = result(p);
        const expected = Buffer.from(JSON.stringify(r));
        expect(searchResultJson(r).equals(expected)).toBe(true);
        expect(searchResultJson(r, "transient").equals(expected)).toBe(true);
      }),
    );
  });

  it("never lets a transient body overwrite a kept one, and reuses its buffer for the next transient", () => {
    const kept = searchResultJson(result({ start: 0, count: 3, next: null }));
    const copy = Buffer.from(kept);
    const a = searchResultJson(result({ start: 1, count: 2, next: null }), "transient");
    const b = sinceResultJson({ since: "2024-01-01", count: 1, reviews: reviews.slice(0, 1) }, "transient");
    expect(kept.equals(copy)).toBe(true);
    // Kept bytes hold no more memory than their length (no slice of a shared pool or of the scratch).
    expect(kept.buffer.byteLength).toBe(kept.length);
    const own = ownCopy(a);
    expect(own.equals(a) && own.buffer !== a.buffer && own.buffer.byteLength === own.length).toBe(true);
    expect(a.buffer).toBe(b.buffer);
    expect(JSON.parse(b.toString("utf8")).since).toBe("2024-01-01");
  });
});
