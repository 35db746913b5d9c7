import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETS, trainingFiles } from "../../scripts/train-insights.ts";
import { DEDUP_JACCARD, overlapIndex, wordSet } from "../../src/insights/overlap.ts";

/**
 * The held-out sets of issue 31 (and `heldout-reviews-2.txt`, written later the same way) stand for text the models never saw: no item of them, and no
 * sentence of a held-out review, is within word-Jaccard 0.5 of a training item or of a sentence of
 * one (docs/insights-rounds.md, "Fifth round"). The same measure as `npm run eval:insights`'s
 * de-duplication (src/insights/overlap.ts), here over every sentence of a held-out review too.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const HELD = ["heldout-plain.txt", "heldout-messy.txt", "heldout-reviews.txt", "heldout-reviews-2.txt"];

const texts = (file: string) =>
  file
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split("|").slice(2).join("|").trim());
/**
 * A text and each of its sentences (not cut after a title: "Dr. Patel"), less those of fewer than
 * four words: "Won't be back." and "Worth it though." are what every reviewer writes, not a leak.
 */
const units = (text: string) =>
  [text, ...text.split(/(?<!\b(?:Dr|Mr|Mrs|Ms))(?<=[.!?])\s+/)].filter((t) => wordSet(t).size >= 4);

describe("the held-out sets of issue 31", () => {
  it("are apart from every training sentence (word-Jaccard under 0.5)", async () => {
    const training: string[] = [];
    for (const f of await trainingFiles([], ROOT)) training.push(...texts(await readFile(f, "utf8")));
    const index = overlapIndex(training);
    const near: string[] = [];
    for (const h of HELD) {
      for (const t of texts(await readFile(path.join(ROOT, SETS, h), "utf8"))) {
        for (const u of units(t)) {
          const nearest = index.nearest(u);
          if (nearest && nearest.similarity >= DEDUP_JACCARD) near.push(`${h}: ${u} ~ ${nearest.text}`);
        }
      }
    }
    expect(near).toEqual([]);
  });
});
