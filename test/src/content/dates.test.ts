import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateToMs, daysInMonth, isCalendarDate } from "../../../src/content/dates.ts";
import { SearchParamsSchema } from "../../../src/search/query.ts";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

describe("isCalendarDate", () => {
  it("accepts 29 February of year 0, which ISO 8601's proleptic calendar makes a leap year", () => {
    expect(isCalendarDate("0000-02-29")).toBe(true);
    expect(dateToMs("0000-02-29")).toBe(Date.parse("0000-03-01T00:00:00Z") - 86_400_000);
  });

  it("applies the century rule in the years Date.UTC maps to the 1900s", () => {
    expect(isCalendarDate("0004-02-29")).toBe(true);
    expect(isCalendarDate("0100-02-29")).toBe(false);
    expect(isCalendarDate("0400-02-29")).toBe(true);
    expect(isCalendarDate("1900-02-29")).toBe(false);
    expect(isCalendarDate("2000-02-29")).toBe(true);
    expect(isCalendarDate("0001-02-29")).toBe(false);
  });

  it("agrees with the ISO date parser for every day of every year", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const s = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
          // Date.parse rolls 31 April over to 1 May; a real day survives the round trip.
          const ms = Date.parse(`${s}T00:00:00Z`);
          const real = !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
          expect(isCalendarDate(s)).toBe(real);
          if (real) expect(d).toBeLessThanOrEqual(daysInMonth(y, m));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("lets search take year 0 as a bound", () => {
    expect(SearchParamsSchema.safeParse({ since: "0000-02-29" }).success).toBe(true);
  });
});
