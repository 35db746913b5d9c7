import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Annotator, createAnnotator } from "../src/lib/insights/annotate.ts";
import { evaluate, parseLabelled } from "../src/lib/insights/evaluate.ts";
import { createAnalyzer } from "../src/lib/insights/nlp.ts";
import { loadInsightsContent } from "../src/lib/insights-content.ts";
import { loadContent } from "../src/lib/load-content.ts";

/**
 * Guards the measured quality of the annotation on the labelled development set
 * (test/fixtures/insights-eval/dev.txt) against regression. The floors sit just under the figures
 * reached (docs/insights.md); `npm run eval:insights` prints the full report.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DEV = path.join(ROOT, "test/fixtures/insights-eval/dev.txt");
let annotator: Annotator;
let ids: string[];

beforeAll(async () => {
  const dir = path.join(ROOT, "content");
  const content = await loadContent(dir, { now: new Date("2100-01-01T00:00:00Z") });
  const insights = await loadInsightsContent(
    dir,
    content.reviews.map((r) => r.id),
  );
  ids = insights.aspects.map((a) => a.id);
  annotator = createAnnotator(insights, content.business, createAnalyzer());
});

describe("aspect annotation on the labelled development set", () => {
  it("keeps polarity accuracy, macro-F1 and aspect detection above their floors", async () => {
    const items = parseLabelled(await readFile(DEV, "utf8"), DEV, ids);
    expect(items.length).toBeGreaterThanOrEqual(300);
    const report = evaluate(items, annotator, ids);
    expect(report.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(report.macroF1).toBeGreaterThanOrEqual(0.82);
    expect(report.detectionPrecision).toBeGreaterThanOrEqual(0.93);
    expect(report.detectionRecall).toBeGreaterThanOrEqual(0.9);
    for (const d of report.detection) expect(d.recall, d.id).toBeGreaterThanOrEqual(0.8);
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
});
