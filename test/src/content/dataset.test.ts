import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregate } from "../../../src/content/aggregate.ts";
import { buildDataset } from "../../../src/content/dataset.ts";
import { loadContent } from "../../../src/io/content-dir.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const ratings = (...rs: number[]) => rs.map((rating) => ({ rating }));

describe("aggregate", () => {
  it("matches a hand count of the fixture", async () => {
    const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
    // By hand: dana 5, greg 2, priya 4, mike 1, heather 3, rt 5, lauren 4, carlos 5.
    // Sum 29 over 8 reviews = 3.625, which rounds half-up to 3.63.
    expect(buildDataset(content, "https://reviews.example").aggregate_rating).toEqual({
      rating_value: 3.63,
      review_count: 8,
      best_rating: 5,
      worst_rating: 1,
      distribution: { "1": 1, "2": 1, "3": 1, "4": 2, "5": 3 },
    });
  });

  it("is zero with every bucket present for an empty dataset", () => {
    expect(aggregate([])).toEqual({
      rating_value: 0,
      review_count: 0,
      best_rating: 5,
      worst_rating: 1,
      distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 },
    });
  });

  it.each([
    [ratings(5), 5],
    [ratings(4, 4, 5), 4.33],
    [ratings(5, 5, 4), 4.67],
    [ratings(1, 2), 1.5],
    [ratings(5, 4, 4, 4, 4, 4, 4, 4), 4.13],
  ])("rounds the mean to 2 decimals (%#)", (rs, expected) => {
    expect(aggregate(rs).rating_value).toBe(expected);
  });

  it("rounds an exact half up even where floating point division would not (169 / 40 = 4.225)", () => {
    // 169 / 40 * 100 is 422.49999999999994 in binary floating point.
    const rs = [...ratings(...Array<number>(31).fill(4)), ...ratings(...Array<number>(9).fill(5))];
    expect(rs.reduce((s, r) => s + r.rating, 0)).toBe(169);
    expect(aggregate(rs).rating_value).toBe(4.23);
  });

  it("keeps the distribution consistent with the count and the mean within rounding", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 500 }), (rs) => {
        const a = aggregate(ratings(...rs));
        const counts = Object.values(a.distribution);
        expect(counts.reduce((s, n) => s + n, 0)).toBe(rs.length);
        rs.forEach((r) => {
          expect(a.distribution[String(r) as "1"]).toBeGreaterThan(0);
        });
        if (rs.length > 0) {
          const mean = rs.reduce((s, r) => s + r, 0) / rs.length;
          expect(Math.abs(a.rating_value - mean)).toBeLessThanOrEqual(0.005 + 1e-9);
          expect(Math.round(a.rating_value * 100)).toBeCloseTo(a.rating_value * 100, 9);
        }
      }),
    );
  });
});
