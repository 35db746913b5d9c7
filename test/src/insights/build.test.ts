import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import { type Analysis, analyzeReviews, buildInsights, type InsightsInput } from "../../../src/insights/build.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { AspectTrendSchema, type Insights, InsightsSchema } from "../../../src/insights/schema.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";

/**
 * The pure builder on test/fixtures/insights-content, whose eight reviews were written so every
 * figure below can be worked out by hand from the sample lexicon (its sentiment.yaml is a copy of
 * content/insights/sentiment.yaml): a domain opinion word is worth 0.6 before the tanh(1.5x)
 * squashing, so one such word gives 0.716, a negated one 0.537.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
const BASE = "https://reviews.example";
const analyzer = createAnalyzer();

let input: InsightsInput;
let analysis: Analysis;
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
  analysis = analyzeReviews(input);
  insights = analysis.insights;
});

const annotated = (id: string) => {
  const found = analysis.reviews.find((r) => r.id === id);
  if (!found) throw new Error(`no review ${id}`);
  return found.aspects;
};

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
    // "Dr. Patel was great" | "but billing was a mess." in a 3-star review.
    const care = aspect("care").examples.positive.find((e) => e.review_id === "2025-06-10-mixed-care");
    const billing = aspect("billing").examples.negative.find((e) => e.review_id === "2025-06-10-mixed-care");
    expect(care?.score).toBe(0.716);
    expect(billing?.score).toBe(-0.716);
    expect(billing?.sentence).toBe("Dr. Patel was great but billing was a mess.");
    expect(annotated("2025-06-10-mixed-care")).toEqual([
      { id: "billing", sentiment: "negative", score: -0.716, source: "machine" },
      { id: "care", sentiment: "positive", score: 0.716, source: "machine" },
    ]);
  });

  it("reads negation: 'not painful at all' and 'never felt rushed or pressured' are praise", () => {
    expect(annotated("2025-05-02-negation")).toEqual([
      { id: "care", sentiment: "positive", score: 0.617, source: "machine" },
      { id: "pain-relief", sentiment: "positive", score: 0.537, source: "machine" },
    ]);
  });

  it("reads the outcome of a condition: 'my sciatica is finally better' is a result, not a complaint", () => {
    expect(annotated("2025-02-20-tom-alias")).toEqual([
      { id: "pain-relief", sentiment: "positive", score: 0.929, source: "machine" },
    ]);
    // "Came in with neck pain." names the condition and says nothing of the outcome.
    expect(annotated("2024-04-10-neck-pain")).toContainEqual({
      id: "pain-relief",
      sentiment: "neutral",
      score: 0,
      source: "machine",
    });
  });

  it("finds an aspect through a phrase only, and the longer phrase wins over a shorter term", () => {
    // "waiting room" is a facility phrase; "wait" (scheduling) must not fire on "waiting".
    expect(aspect("facility").examples.positive.map((e) => e.review_id)).toEqual(["2025-03-15-waiting-room"]);
    expect(annotated("2025-03-15-waiting-room").map((a) => a.id)).toEqual(["facility"]);
  });

  it("takes the wait's polarity from its outcome: 'the wait was long' is negative for scheduling", () => {
    expect(tally("scheduling")).toEqual([1, 1, 0, 0, 1, -0.716]);
    expect(annotated("2023-01-05-parking")).toEqual([
      { id: "location", sentiment: "positive", score: 0.716, source: "machine" },
      { id: "scheduling", sentiment: "negative", score: -0.716, source: "machine" },
    ]);
  });

  it("matches terms by lemma: 'billed' and 'bills' count for the term 'bill'", () => {
    expect(aspect("billing").examples.negative.map((e) => [e.review_id, e.score])).toEqual([
      ["2024-08-01-billed-twice", -0.855],
      ["2025-06-10-mixed-care", -0.716],
    ]);
  });

  it("counts reviews by their annotation, so every count matches the aspect search", () => {
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
    expect(tally("pain-relief")).toEqual([3, 3, 2, 1, 0, 0.489]);
    expect(tally("care")).toEqual([3, 3, 2, 1, 0, 0.444]);
    expect(tally("staff")).toEqual([1, 1, 1, 0, 0, 0.617]);
    expect(tally("billing")).toEqual([2, 2, 0, 0, 2, -0.786]);
    expect(tally("facility")).toEqual([1, 1, 1, 0, 0, 0.873]);
    expect(tally("location")).toEqual([1, 1, 1, 0, 0, 0.716]);
    for (const a of insights.aspects) {
      const withAspect = analysis.reviews.filter((r) => r.aspects.some((x) => x.id === a.id));
      expect(a.reviews).toBe(withAspect.length);
      for (const side of ["positive", "neutral", "negative"] as const) {
        expect(a[side]).toBe(
          withAspect.filter((r) => r.aspects.some((x) => x.id === a.id && x.sentiment === side)).length,
        );
      }
    }
    expect(aspect("care").share_of_reviews).toBe(0.375);
  });

  it("orders every review's aspects by id and keeps the rest of the record", () => {
    for (const r of analysis.reviews) {
      const ids = r.aspects.map((a) => a.id);
      expect(ids).toEqual([...ids].sort());
      expect({ ...r, aspects: [] }).toEqual(input.reviews.find((x) => x.id === r.id));
    }
    expect(annotated("2024-11-30-explicit-only")).toEqual([]);
  });

  it("measures trends back from the newest review date, not the clock", () => {
    const t = aspect("care").trend;
    expect(t?.recent).toEqual({ from: "2024-06-11", to: "2025-06-10", mentions: 2, mean_sentiment: 0.667 });
    expect(t?.previous).toEqual({ from: "2023-06-11", to: "2024-06-10", mentions: 1, mean_sentiment: 0 });
    expect([t?.change, t?.direction]).toEqual([0.667, "up"]);
    // A period's `mentions` counts reviews (its evidence page lists them), not clauses as the aspect's own does, and says so.
    const inPeriod = analysis.reviews.filter(
      (r) => r.date >= "2024-06-11" && r.date <= "2025-06-10" && r.aspects.some((a) => a.id === "care"),
    );
    expect(inPeriod.length).toBe(t?.recent.mentions);
    const period = AspectTrendSchema.shape.recent.shape.mentions.description;
    expect(period).toMatch(/^Reviews /);
    expect(AspectTrendSchema.shape.previous.shape.mentions.description).toBe(period);
    expect(aspect("staff").trend).toMatchObject({ change: null, direction: null });
    expect(insights.summary.highlights.rating_trend).toEqual({
      recent: { from: "2024-06-11", to: "2025-06-10", review_count: 6, rating_value: 3.83 },
      previous: { from: "2023-06-11", to: "2024-06-10", review_count: 1, rating_value: 4 },
      change: -0.17,
      direction: "down",
    });
  });

  it("credits a technician named only by an alias, and scores them on the aspects of the clauses that name them", () => {
    const [tom, patel, jenna] = ["tom-lindqvist", "anika-patel", "jenna-okafor"].map((id) =>
      insights.entities.technicians.find((e) => e.id === id),
    );
    // "Tom showed me… my sciatica is finally better" (pain-relief, positive) and "Tom lent me a
    // foam roller." (care, neutral).
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
        { id: "care", label: "Practitioner care and explanation", reviews: 1 },
        { id: "staff", label: "Front desk and staff", reviews: 1 },
      ],
    });
    // Named in a mixed review (her clause is positive care) and listed explicitly in a review that
    // discusses no aspect, which is neutral.
    expect(patel).toMatchObject({ mentions: 2, average_rating: 4, positive: 1, neutral: 1, net_sentiment: 0.5 });
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
      ["pain-relief", 2],
      ["care", 2],
      ["facility", 1],
    ]);
    expect(insights.summary.highlights.criticised.map((h) => [h.id, h.count])).toEqual([
      ["billing", 2],
      ["scheduling", 1],
    ]);
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
      `${BASE}/reviews/2025-06-10-mixed-care/`,
      `${BASE}/reviews/2024-08-01-billed-twice/`,
    ]);
  });

  it("quotes a long sentence by the part that holds the clause quoted, and never a clause too long to show whole", () => {
    const story =
      "I drove over on a Tuesday morning after dropping my kids at school and grabbing a coffee at the place on the corner, found a spot on the second level of the garage, walked across the street past the bakery and the bank and the little bookshop with the cat in the window, filled out the forms in the lobby while a radio played oldies";
    const base = input.reviews[0] as (typeof input.reviews)[number];
    const quoteOf = (text: string) => {
      const long = { ...base, id: "2025-07-01-long-story", rating: 2, title: null, text, aspects: [] };
      return buildInsights({ ...input, reviews: [long, ...input.reviews] })
        .aspects.find((a) => a.id === "billing")
        ?.examples.negative.find((e) => e.review_id === long.id)?.sentence;
    };
    // The clause after "but" is the complaint: the quote shows it, cut before it, in the review's words.
    const cut = quoteOf(`${story}, but the billing was a mess.`);
    expect(cut).toMatch(/^….*, but the billing was a mess\.$/);
    expect(cut?.length).toBeLessThanOrEqual(300);
    expect(story).toContain(cut?.slice(1, -", but the billing was a mess.".length));
    // One clause of 360 characters: no 300 of them show what it is quoted for.
    expect(quoteOf(`${story}, and then the billing was a mess.`)).toBeUndefined();
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
