import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitsetOf, popcount, positionsOf, select, wordsFor } from "../../../src/search/bitset.ts";

describe("bitset selection", () => {
  it("counts and pages the intersection within a range exactly like filtering arrays", () => {
    const input = fc.integer({ min: 0, max: 300 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        sets: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, n - 1) }), { maxLength: n }), {
          minLength: 1,
          maxLength: 4,
        }),
        lo: fc.integer({ min: 0, max: n }),
        hi: fc.integer({ min: 0, max: n }),
        offset: fc.integer({ min: 0, max: 200 }),
        limit: fc.integer({ min: 1, max: 100 }),
      }),
    );
    fc.assert(
      fc.property(input, ({ n, sets, lo, hi, offset, limit }) => {
        const members = sets.map((s) => new Set(s));
        const all: number[] = [];
        for (let i = lo; i < hi; i++) if (members.every((m) => m.has(i))) all.push(i);
        const bitsets = sets.map((s) =>
          bitsetOf(
            n,
            s.filter((i) => i < n),
          ),
        );
        // A scratch with stale bits: select must not depend on what it held.
        const scratch = new Uint32Array(wordsFor(n)).fill(0xffffffff);
        const got = select(bitsets, lo, hi, offset, limit, scratch);
        expect(got.total).toBe(all.length);
        expect(got.page).toEqual(all.slice(offset, offset + limit));
      }),
      { numRuns: 500 },
    );
  });

  it("lists members and counts bits, including bit 31", () => {
    const bits = bitsetOf(70, [0, 31, 32, 63, 69]);
    expect(positionsOf(bits)).toEqual([0, 31, 32, 63, 69]);
    expect(popcount(0xffffffff)).toBe(32);
    expect(popcount(0x80000001)).toBe(2);
  });
});
