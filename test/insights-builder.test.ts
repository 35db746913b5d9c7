import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../src/lib/dataset.ts";
import { buildInsights, type InsightsInput } from "../src/lib/insights/build.ts";
import { createAnalyzer } from "../src/lib/insights/nlp.ts";
import { type Insights, InsightsSchema } from "../src/lib/insights/schema.ts";
import { loadInsightsContent } from "../src/lib/insights-content.ts";
import { loadContent } from "../src/lib/load-content.ts";

/**
 * The pure builder on test/fixtures/insights-content, whose eight reviews were written so every
 * figure below can be worked out by hand. The wink scores quoted in comments are what the library
 * gives each clause; the expectations are about how the builder uses them.
 */
const FIXTURE = path.resolve(import.meta.dirname, "fixtures/insights-content");
const BASE = "https://reviews.example";
const analyzer = createAnalyzer();

let input: InsightsInput;
let insights: Insights;

beforeAll(async () => {
  const content = await loadContent(FIXTURE, { now: new Date("2026-01-01T00:00:00Z") });
  const dataset = buildDataset(content, BASE);
  input = {
    reviews: dataset.reviews,
    business: dataset.business,
    content: await loadInsightsContent(
      FIXTURE,
      dataset.reviews.map((r) => r.id),
    ),
    analyzer,
  };
  insights = buildInsights(input);
});

const aspect = (id: string) => {
  const found = insights.aspects.find((a) => a.id === id);
  if (!found) throw new Error(`no aspect ${id}`);
  return found;
};
const tally = (id: string) => {
  const a = aspect(id);
  return [a.mentions, a.reviews, a.positive, a.neutral, a.negative, a.mean_sentiment];
};

describe("buildInsights on the crafted fixture", () => {
  it("produces a document that satisfies the published schema", () => {
    expect(() => InsightsSchema.parse(insights)).not.toThrow();
  });

  it("splits a mixed sentence so care is positive and billing negative", () => {
    // "Dr. Patel was great" (0.6) | "but billing was a mess." (-0.4); the whole sentence scores 0.1.
    const care = aspect("care").examples.positive.find((e) => e.review_id === "2025-06-10-mixed-care");
    const billing = aspect("billing").examples.negative.find((e) => e.review_id === "2025-06-10-mixed-care");
    expect(care?.score).toBe(0.6);
    expect(billing?.score).toBe(-0.4);
    expect(billing?.sentence).toBe("Dr. Patel was great but billing was a mess.");
  });

  it("reads negation: 'not painful at all' and 'never felt rushed or pressured' are praise", () => {
    const review = "2025-05-02-negation";
    expect(aspect("pain-relief").examples.positive.map((e) => [e.review_id, e.score])).toContainEqual([review, 0.5]);
    expect(aspect("care").examples.positive.map((e) => [e.review_id, e.score])).toContainEqual([review, 0.4]);
  });

  it("finds an aspect through a phrase only, and the longer phrase wins over a shorter term", () => {
    // "waiting room" is a facility phrase; "wait" (scheduling) must not fire on "waiting".
    expect(aspect("facility").examples.positive.map((e) => e.review_id)).toEqual(["2025-03-15-waiting-room"]);
    expect(tally("scheduling")).toEqual([1, 1, 0, 1, 0, 0]);
  });

  it("ignores the lexicon sentiment of a neutral term unless it is negated", () => {
    // "Came in with neck pain." is -0.75 to wink because of "pain"; it describes, not complains.
    expect(aspect("pain-relief").negative).toBe(0);
    expect(aspect("pain-relief").neutral).toBe(1);
  });

  it("matches terms by lemma: 'billed' and 'bills' count for the term 'bill'", () => {
    expect(aspect("billing").examples.negative.map((e) => [e.review_id, e.score])).toEqual([
      ["2025-06-10-mixed-care", -0.4],
      ["2024-08-01-billed-twice", -0.25],
    ]);
  });

  it("agrees with the hand count for every aspect", () => {
    // [mentions, reviews, positive, neutral, negative, mean sentiment]
    expect(insights.aspects.map((a) => a.id)).toEqual([
      "pain-relief",
      "care",
      "staff",
      "scheduling",
      "billing",
      "facility",
      "location",
    ]);
    expect(tally("pain-relief")).toEqual([3, 3, 2, 1, 0, 0.333]);
    expect(tally("care")).toEqual([4, 4, 3, 1, 0, 0.375]);
    expect(tally("staff")).toEqual([1, 1, 1, 0, 0, 0.4]);
    expect(tally("billing")).toEqual([2, 2, 0, 0, 2, -0.325]);
    expect(tally("facility")).toEqual([1, 1, 1, 0, 0, 0.399]);
    expect(tally("location")).toEqual([1, 1, 1, 0, 0, 0.292]);
    expect(aspect("care").share_of_reviews).toBe(0.5);
    expect(aspect("pain-relief").share_of_reviews).toBe(0.375);
  });

  it("measures trends back from the newest review date, not the clock", () => {
    const t = aspect("care").trend;
    expect(t?.recent).toEqual({ from: "2024-06-11", to: "2025-06-10", mentions: 3, mean_sentiment: 0.5 });
    expect(t?.previous).toEqual({ from: "2023-06-11", to: "2024-06-10", mentions: 1, mean_sentiment: 0 });
    expect([t?.change, t?.direction]).toEqual([0.5, "up"]);
    expect(aspect("staff").trend).toMatchObject({ change: null, direction: null });
    expect(insights.summary.highlights.rating_trend).toEqual({
      recent: { from: "2024-06-11", to: "2025-06-10", review_count: 6, rating_value: 3.83 },
      previous: { from: "2023-06-11", to: "2024-06-10", review_count: 1, rating_value: 4 },
      change: -0.17,
      direction: "down",
    });
  });

  it("credits a technician named only by an alias, and scores them on the clauses that name them", () => {
    const [tom, patel, jenna] = ["tom-lindqvist", "anika-patel", "jenna-okafor"].map((id) =>
      insights.entities.technicians.find((e) => e.id === id),
    );
    // "Tom showed me…" (0.5, positive) and "Tom lent me a foam roller." (0, neutral).
    expect(tom).toEqual({
      id: "tom-lindqvist",
      name: "Tom Lindqvist",
      mentions: 2,
      average_rating: 4.5,
      positive: 1,
      neutral: 1,
      negative: 0,
      net_sentiment: 0.5,
      top_aspects: [
        { id: "pain-relief", label: "Pain relief and results", reviews: 2 },
        { id: "care", label: "Practitioner care and explanation", reviews: 2 },
        { id: "staff", label: "Front desk and staff", reviews: 1 },
      ],
    });
    // Named in a mixed review (her clause is positive) and listed explicitly in another.
    expect(patel).toMatchObject({ mentions: 2, average_rating: 4, positive: 2, net_sentiment: 1 });
    expect(jenna).toMatchObject({ mentions: 0, average_rating: null, net_sentiment: null, top_aspects: [] });
    expect(insights.entities.technicians.map((e) => e.id)).toEqual(["anika-patel", "tom-lindqvist", "jenna-okafor"]);
    expect(insights.entities.service_areas.map((e) => [e.id, e.mentions])).toEqual([
      ["beaverton", 1],
      ["tigard", 1],
    ]);
  });

  it("reports recurring multi-word phrases with their reviews, newest first", () => {
    expect(insights.topics).toEqual([
      { phrase: "foam roller", count: 2, review_ids: ["2025-02-20-tom-alias", "2024-04-10-neck-pain"] },
    ]);
  });

  it("summarises highlights and coverage", () => {
    expect(insights.summary.highlights.praised.map((h) => [h.id, h.count])).toEqual([
      ["care", 3],
      ["pain-relief", 2],
      ["staff", 1],
    ]);
    expect(insights.summary.highlights.criticised.map((h) => [h.id, h.count])).toEqual([["billing", 2]]);
    expect(insights.summary.coverage).toEqual({
      review_count: 8,
      sentences_analysed: 13,
      first_review_date: "2023-01-05",
      newest_review_date: "2025-06-10",
    });
    expect(insights.summary.editorial).toBe(
      "Reviewers praise the care and the calm waiting room.\n\nBilling is the sore point.",
    );
  });

  it("links every example, FAQ evidence and topic to a review that exists", () => {
    const urls = new Map(input.reviews.map((r) => [r.id, r.url]));
    const examples = insights.aspects.flatMap((a) => [...a.examples.positive, ...a.examples.negative]);
    expect(examples.length).toBeGreaterThan(0);
    for (const e of [...examples, ...insights.faq.flatMap((f) => f.evidence)]) {
      expect(urls.get(e.review_id)).toBe(e.url);
    }
    for (const id of insights.topics.flatMap((t) => t.review_ids)) expect(urls.has(id)).toBe(true);
    expect(insights.faq[0]?.evidence.map((e) => e.url)).toEqual([
      `${BASE}/reviews/2025/06/#review-2025-06-10-mixed-care`,
      `${BASE}/reviews/2024/08/#review-2024-08-01-billed-twice`,
    ]);
  });

  it("gives the same bytes for the same reviews in any input order", () => {
    const shuffled = buildInsights({ ...input, reviews: [...input.reviews].reverse() });
    expect(JSON.stringify(shuffled)).toBe(JSON.stringify(insights));
  });

  it("handles a site with no reviews without inventing figures", () => {
    const empty = buildInsights({ ...input, reviews: [], content: { ...input.content, faq: [] } });
    expect(empty.aspects.every((a) => a.mentions === 0 && a.mean_sentiment === null && a.trend === null)).toBe(true);
    expect(empty.summary.highlights.rating_trend).toBeNull();
    expect(empty.summary.coverage).toEqual({
      review_count: 0,
      sentences_analysed: 0,
      first_review_date: null,
      newest_review_date: null,
    });
    expect(() => InsightsSchema.parse(empty)).not.toThrow();
  });
});
