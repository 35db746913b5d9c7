import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset, EDITOR_SCORE, editorAspects } from "../../../src/content/dataset.ts";
import type { ReviewAspect, ReviewRecord } from "../../../src/content/records.ts";
import { analyzeReviews, type InsightsInput } from "../../../src/insights/build.ts";
import { createCountedSentences } from "../../../src/insights/counted.ts";
import { withEditorLabels } from "../../../src/insights/editor-labels.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import type { AspectMention } from "../../../src/insights/readings.ts";
import { createSummariser } from "../../../src/insights/review-summary.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";

/**
 * An editor's `aspects:` labels replace the machine's reading of a review, and every figure built
 * from the annotations follows. On test/fixtures/insights-content, whose review
 * 2023-01-05-parking reads "Parking was easy, although the wait was long." (location positive,
 * scheduling negative by the machine).
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
const PARKING = "2023-01-05-parking";
const analyzer = createAnalyzer();
let input: InsightsInput;

beforeAll(async () => {
  const content = await loadContent(FIXTURE, { now: new Date("2026-01-01T00:00:00Z") });
  const dataset = buildDataset(content, "https://reviews.example");
  input = {
    reviews: dataset.reviews,
    business: dataset.business,
    content: await loadInsightsContent(
      FIXTURE,
      dataset.reviews.map((r) => r.id),
    ),
    analyzer,
  };
});

const labelled = (labels: Record<string, "positive" | "neutral" | "negative">): ReviewRecord[] =>
  input.reviews.map((r) => (r.id === PARKING ? { ...r, aspects: editorAspects(labels) } : r));

describe("editor labels", () => {
  it("start as the record's aspects, ordered by id, with source editor and the editor's score", () => {
    expect(editorAspects({ location: "negative", billing: "neutral" })).toEqual([
      { id: "billing", sentiment: "neutral", score: EDITOR_SCORE.neutral, source: "editor" },
      { id: "location", sentiment: "negative", score: EDITOR_SCORE.negative, source: "editor" },
    ]);
    expect(editorAspects(undefined)).toEqual([]);
  });

  it("leave the machine's reading, marked machine, where there are none", () => {
    const { reviews } = analyzeReviews(input);
    const parking = reviews.find((r) => r.id === PARKING);
    expect(parking?.aspects.map((a) => `${a.id}:${a.sentiment}:${a.source}`)).toEqual([
      "location:positive:machine",
      "scheduling:negative:machine",
    ]);
  });

  it("replace the whole reading: a confirmed label keeps the machine's score, a corrected one the editor's, the rest go", () => {
    const { reviews } = analyzeReviews({ ...input, reviews: labelled({ location: "positive", facility: "negative" }) });
    const machine = analyzeReviews(input).reviews.find((r) => r.id === PARKING)?.aspects ?? [];
    const parking = reviews.find((r) => r.id === PARKING);
    expect(parking?.aspects).toEqual([
      { id: "facility", sentiment: "negative", score: EDITOR_SCORE.negative, source: "editor" },
      { id: "location", sentiment: "positive", score: machine[0]?.score, source: "editor" },
    ]);
  });

  it("move every figure: counts per polarity, quotes and entity sentiment", () => {
    const before = analyzeReviews(input).insights;
    const after = analyzeReviews({ ...input, reviews: labelled({ location: "negative" }) }).insights;
    const count = (i: typeof before, id: string): [number, number, number] => {
      const a = i.aspects.find((x) => x.id === id);
      return [a?.positive ?? 0, a?.neutral ?? 0, a?.negative ?? 0];
    };
    const [pos, neu, neg] = count(before, "location");
    expect(count(after, "location")).toEqual([pos - 1, neu, neg + 1]);
    const [sPos, sNeu, sNeg] = count(before, "scheduling");
    expect(count(after, "scheduling")).toEqual([sPos, sNeu, sNeg - 1]);
    // The machine read the location clause as praise: it is no quote for the editor's complaint.
    const location = after.aspects.find((a) => a.id === "location");
    expect(location?.examples.negative.map((e) => e.review_id)).not.toContain(PARKING);
    expect(location?.examples.positive.map((e) => e.review_id)).not.toContain(PARKING);
    const tigard = (i: typeof before) => i.entities.service_areas.find((e) => e.id === "tigard");
    expect(tigard(after)?.negative).toBe((tigard(before)?.negative ?? 0) + 1);
  });

  it("let a confirmed review's sentence be quoted only where the machine's own reading of it may be quoted", () => {
    const summarise = createSummariser(input.content, input.business, analyzer);
    const review = input.reviews.find((r) => r.id === PARKING) as ReviewRecord;
    const summary = summarise(review);
    const indexOf = new Map(input.content.aspects.map((a, i) => [a.id, i]));
    const countedOf = createCountedSentences(input.business, indexOf);
    const recount = (aspects: readonly ReviewAspect[], mentions: readonly AspectMention[]) =>
      countedOf(review, aspects, mentions);
    const scheduling = indexOf.get("scheduling");
    const confirmed = withEditorLabels(summary, editorAspects({ scheduling: "negative" }), indexOf, recount);
    expect(confirmed.mentions.map((m) => [m.aspect, m.confident])).toEqual([[scheduling, true]]);
    // A reading the models gave, or a clause about something else, is no quote even once confirmed:
    // the label says what the review says of the aspect, not what this sentence says.
    const unsure = { ...summary, mentions: summary.mentions.map((m) => ({ ...m, confident: false })) };
    const still = withEditorLabels(unsure, editorAspects({ scheduling: "negative" }), indexOf, recount);
    expect(still.mentions.map((m) => [m.aspect, m.confident])).toEqual([[scheduling, false]]);
    expect([...confirmed.scores.keys()]).toEqual([indexOf.get("scheduling")]);
    expect(withEditorLabels(summary, [], indexOf, recount)).toBe(summary);
  });

  it("show on the evidence pages a sentence only where the machine read one the label's way", () => {
    const said = (labels: Record<string, "positive" | "neutral" | "negative">) => {
      const { counted } = analyzeReviews({ ...input, reviews: labelled(labels) });
      const byAspect = counted.get(PARKING) ?? new Map();
      return Object.fromEntries([...byAspect].map(([id, c]) => [id, c.sentence.slice(c.span[0], c.span[1])]));
    };
    // "Parking was easy, although the wait was long.": confirmed, the clause that says it; corrected
    // against every clause, none.
    expect(said({ location: "positive", scheduling: "negative" })).toEqual({
      location: "Parking was easy,",
      scheduling: "although the wait was long.",
    });
    expect(said({ location: "negative" })).toEqual({});
  });
});
