import { describe, expect, it } from "vitest";
import { wilson } from "../../../src/insights/evaluate.ts";
import { DEDUP_JACCARD, deduplicate, jaccard, overlapIndex, wordSet } from "../../../src/insights/overlap.ts";

describe("overlap with what training read", () => {
  it("compares the sets of words, case, punctuation and apostrophes aside", () => {
    expect([...wordSet("Didn't help, didnt HELP!")]).toEqual(["didnt", "help"]);
    expect(jaccard(wordSet("the bill was high"), wordSet("the bill was low"))).toBe(3 / 5);
    expect(jaccard(wordSet(""), wordSet(""))).toBe(0);
  });

  it("finds the nearest training text, and a sentence inside a training review", () => {
    const index = overlapIndex([
      "Parking is a nightmare.",
      "The doctor was great. The bill came to twice the estimate!",
    ]);
    expect(index.size).toBe(4);
    expect(index.nearest("The bill came to twice the estimate")).toEqual({
      similarity: 1,
      text: "The bill came to twice the estimate!",
    });
    expect(index.nearest("zebra")).toBeUndefined();
  });

  it(`drops an item at word-Jaccard ${DEDUP_JACCARD} or more, and keeps one below`, () => {
    const index = overlapIndex(["a b c d"]);
    // Against {a b c d}: {a b c} 3/4, {a b c e} 3/5, {a b e f} 2/6, {a b c e f g} 3/7.
    const { kept, dropped } = deduplicate(
      [{ text: "a b c" }, { text: "a b e f" }, { text: "a b c e" }, { text: "a b c e f g" }],
      index,
    );
    expect(dropped.map((d) => [d.item.text, d.nearest.similarity])).toEqual([
      ["a b c", 0.75],
      ["a b c e", 0.6],
    ]);
    expect(kept.map((k) => k.text)).toEqual(["a b e f", "a b c e f g"]);
    // Exactly at the threshold: {a b} against {a b c d} is 2/4.
    expect(deduplicate([{ text: "a b" }], index).dropped).toHaveLength(1);
  });
});

describe("the Wilson interval", () => {
  it("matches the published values and stays inside [0, 1]", () => {
    const round = ([a, b]: [number, number]) => [Number(a.toFixed(4)), Number(b.toFixed(4))];
    expect(round(wilson(5, 10))).toEqual([0.2366, 0.7634]);
    expect(round(wilson(0, 10))).toEqual([0, 0.2775]);
    expect(round(wilson(10, 10))).toEqual([0.7225, 1]);
    expect(wilson(0, 0)).toEqual([0, 1]);
  });
});
