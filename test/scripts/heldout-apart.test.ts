import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETS, trainingFiles } from "../../scripts/train-insights.ts";

/**
 * The held-out sets of issue 31 stand for text the models never saw: no item of them, and no
 * sentence of a held-out review, is within word-Jaccard 0.5 of a training item or of a sentence of
 * one (docs/insights.md, "Fifth round").
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const HELD = ["heldout-plain.txt", "heldout-messy.txt", "heldout-reviews.txt"];

const texts = (file: string) =>
  file
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split("|").slice(2).join("|").trim());
/** A text and, when it has several, each of its sentences, as sets of lower-case words. */
const units = (text: string) =>
  [text, ...text.split(/(?<=[.!?])\s+/)]
    .map((t) => new Set(t.toLowerCase().match(/[a-z0-9']+/g) ?? []))
    .filter((w) => w.size >= 3);
const jaccard = (a: Set<string>, b: Set<string>) => {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return both / (a.size + b.size - both);
};

describe("the held-out sets of issue 31", () => {
  it("are apart from every training sentence (word-Jaccard under 0.5)", async () => {
    const training: Set<string>[] = [];
    for (const f of await trainingFiles([], ROOT))
      for (const t of texts(await readFile(f, "utf8"))) training.push(...units(t));
    const near: string[] = [];
    for (const h of HELD) {
      for (const t of texts(await readFile(path.join(ROOT, SETS, h), "utf8"))) {
        for (const u of units(t)) if (training.some((w) => jaccard(u, w) >= 0.5)) near.push(`${h}: ${t}`);
      }
    }
    expect(near).toEqual([]);
  });
});
