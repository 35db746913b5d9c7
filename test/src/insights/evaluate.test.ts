import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Annotator, createAnnotator } from "../../../src/insights/annotate.ts";
import { editorAgreement, evaluate, parseLabelled, withInterval } from "../../../src/insights/evaluate.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { DEDUP_JACCARD, deduplicate, overlapIndex } from "../../../src/insights/overlap.ts";
import { projectInsights } from "../../helpers/project-insights.ts";

/**
 * The evaluation's mechanics, checked on the validation sets under test/fixtures/insights-eval/,
 * and floors on those sets against regression. No test reads the held-out sets (HELD_OUT in
 * scripts/train-insights.ts): a threshold asserted on every change would make them validation
 * sets. `npm run eval:insights` prints the full report, held-out sets first.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
let annotator: Annotator;
let ids: string[];

beforeAll(async () => {
  const { content, insights } = await projectInsights();
  ids = insights.aspects.map((a) => a.id);
  annotator = createAnnotator(insights, content.business, createAnalyzer());
});

const readSet = async (name: string) => {
  const file = path.join(ROOT, "test/fixtures/insights-eval", name);
  return parseLabelled(await readFile(file, "utf8"), file, ids);
};

/**
 * Floors sit just under the figures measured on each validation set (docs/insights.md, "Measured
 * figures"). The learned models are trained on every one of them (scripts/train-insights.ts), so
 * they guard against regression, not generalisation.
 */
const FLOORS = [
  { file: "dev-2.txt", min: 60, accuracy: 0.97, macroF1: 0.95, precision: 0.95, recall: 0.96, aspectRecall: 0.85 },
  { file: "dev-3.txt", min: 60, accuracy: 0.95, macroF1: 0.91, precision: 0.92, recall: 0.97, aspectRecall: 0.85 },
  { file: "dev-4.txt", min: 170, accuracy: 0.94, macroF1: 0.94, precision: 0.91, recall: 0.97, aspectRecall: 0.9 },
  { file: "dev-5.txt", min: 170, accuracy: 0.94, macroF1: 0.94, precision: 0.9, recall: 0.97, aspectRecall: 0.9 },
  { file: "dev.txt", min: 300, accuracy: 0.93, macroF1: 0.85, precision: 0.95, recall: 0.96, aspectRecall: 0.9 },
  { file: "heldout.txt", min: 80, accuracy: 0.93, macroF1: 0.79, precision: 0.94, recall: 0.95, aspectRecall: 0.85 },
  { file: "heldout-2.txt", min: 200, accuracy: 0.95, macroF1: 0.9, precision: 0.92, recall: 0.97, aspectRecall: 0.9 },
];

describe("aspect annotation on the labelled sets", () => {
  it.each(FLOORS)("keeps polarity accuracy, macro-F1 and aspect detection on $file above their floors", async (f) => {
    const items = await readSet(f.file);
    expect(items.length).toBeGreaterThanOrEqual(f.min);
    const report = evaluate(items, annotator, ids);
    expect(report.accuracy).toBeGreaterThanOrEqual(f.accuracy);
    expect(report.macroF1).toBeGreaterThanOrEqual(f.macroF1);
    expect(report.detectionPrecision).toBeGreaterThanOrEqual(f.precision);
    expect(report.detectionRecall).toBeGreaterThanOrEqual(f.recall);
    for (const d of report.detection) expect(d.recall, d.id).toBeGreaterThanOrEqual(f.aspectRecall);
  });

  it("measures each figure from its own counts, and every item right or listed as a misread", async () => {
    const items = await readSet("dev-2.txt");
    const r = evaluate(items, annotator, ids, Number.POSITIVE_INFINITY);
    const { correct, goldPairs, tp, fp, fn } = r.counts;
    expect(goldPairs).toBe(items.reduce((n, i) => n + i.gold.size, 0));
    expect(tp + fn).toBe(goldPairs);
    expect(r.matched).toBe(tp);
    expect(r.accuracy).toBe(correct / r.matched);
    expect(r.strictAccuracy).toBe(correct / goldPairs);
    expect(r.detectionRecall).toBe(tp / (tp + fn));
    expect(r.detectionPrecision).toBe(tp / (tp + fp));
    const confused = Object.values(r.confusion).flatMap((row) => Object.values(row));
    expect(confused.reduce((a, b) => a + b, 0)).toBe(r.matched);
    expect(r.exact + r.worst.length).toBe(items.length);
    expect(r.worst.every((m) => m.severity > 0)).toBe(true);
    expect(withInterval(correct, r.matched)).toMatch(/^[01]\.\d{3} \([01]\.\d\d–[01]\.\d\d, n = \d+\)$/);
  });

  it("drops from a set the items training read again, and keeps the rest", async () => {
    const dev = await readSet("dev-2.txt");
    const { kept, dropped } = deduplicate(dev, overlapIndex(dev.slice(0, 10).map((i) => i.text)));
    expect(dropped.map((d) => d.item)).toEqual(expect.arrayContaining(dev.slice(0, 10)));
    expect(dropped.length + kept.length).toBe(dev.length);
    for (const { nearest } of dropped) expect(nearest.similarity).toBeGreaterThanOrEqual(DEDUP_JACCARD);
  });

  it("reads the issue's hard cases as a reader would", () => {
    const read = (text: string, rating: number) =>
      annotator
        .annotate({ id: "x", title: null, text, rating, technicians: [], services: [], service_areas: [] })
        .aspects.map((a) => `${a.id}:${a.sentiment}`);
    expect(read("The billing office was a nightmare.", 5)).toEqual(["billing:negative"]);
    expect(read("Insurance didn't cover the decompression table at all.", 3)).toEqual(["billing:negative"]);
    expect(read("They tried to sell me a $3,000 prepaid package on my first visit.", 4)).toEqual(["billing:negative"]);
    expect(read("I came in with sciatica after a sports injury.", 5)).toEqual(["pain-relief:neutral"]);
    expect(read("My sciatica is gone and the herniated disc no longer bothers me.", 5)).toEqual([
      "pain-relief:positive",
    ]);
    expect(read("No better than when I started.", 2)).toEqual(["pain-relief:negative"]);
    expect(read("The pain came back within a week.", 4)).toEqual(["pain-relief:negative"]);
    expect(read("I could not be happier with my results.", 5)).toEqual(["pain-relief:positive"]);
    expect(read("I would not say the receptionist was friendly.", 3)).toEqual(["staff:negative"]);
    expect(read("Dr. Patel was great but billing was a mess.", 3)).toEqual(["billing:negative", "care:positive"]);
  });

  it("rejects a malformed labelled line with its file and line number", () => {
    expect(() => parseLabelled("5 | billing:? | Fine.", "x.txt", ids)).toThrow(
      'x.txt:1: expected +, 0 or - after billing:, got "5 | billing:? | Fine."',
    );
  });

  it("measures how often the machine agrees with editors' labels, listing every difference", () => {
    const review = (id: string, text: string) => ({
      id,
      title: null,
      text,
      rating: 3,
      technicians: [],
      services: [],
      service_areas: [],
    });
    const report = editorAgreement(
      [
        {
          review: review("a", "Dr. Patel was great but billing was a mess."),
          labels: { care: "positive", billing: "negative" },
        },
        { review: review("b", "Parking was easy."), labels: { location: "negative", staff: "positive" } },
      ],
      annotator,
    );
    expect(report).toEqual({
      reviews: 2,
      labels: 4,
      agreed: 2,
      agreement: 0.5,
      missed: 1,
      extra: 0,
      differences: ["b: location: editor negative, machine positive", "b: staff: editor positive, machine not found"],
    });
    expect(editorAgreement([], annotator).agreement).toBe(1);
  });
});
