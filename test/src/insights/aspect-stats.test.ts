import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewRecord } from "../../../src/content/records.ts";
import { analyzeReviews, type InsightsInput } from "../../../src/insights/build.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { reviewRecord } from "../../helpers/review-record.ts";

/**
 * "In their words": a sentence is quoted for an aspect only when it is explicit evidence for the
 * review's polarity, never a contrast read into a clause with no opinion word, nor a tie the rating
 * broke. Reviews written for this test, analysed with the sample content's vocabulary.
 */
const _ROOT = path.resolve(import.meta.dirname, "../../..");
let input: InsightsInput;

beforeAll(async () => {
  const dir = PROJECT_CONTENT;
  const content = await loadContent(dir, { now: new Date("2100-01-01T00:00:00Z") });
  const dataset = buildDataset(content, "https://reviews.example");
  input = {
    reviews: [],
    business: dataset.business,
    // The FAQ names sample reviews that these tests do not have.
    content: {
      ...(await loadInsightsContent(
        dir,
        dataset.reviews.map((r) => r.id),
      )),
      faq: [],
    },
    analyzer: createAnalyzer(),
  };
});

const review = (id: string, rating: number, text: string) => reviewRecord(id, rating, text);

const quotes = (reviews: ReviewRecord[], id: string, base: InsightsInput = input) => {
  const a = analyzeReviews({ ...base, reviews }).insights.aspects.find((x) => x.id === id);
  return {
    counts: [a?.positive, a?.negative],
    quoted: [...(a?.examples.positive ?? []), ...(a?.examples.negative ?? [])].map((q) => q.sentence),
  };
};

describe("quotes a visitor can trust", () => {
  it("counts a contrast read into a clause without an opinion word, but does not quote it", () => {
    expect(quotes([review("contrast", 4, "The building is old, but the doctor is excellent.")], "facility")).toEqual({
      counts: [0, 1],
      quoted: [],
    });
  });

  it("counts a tie the rating broke, but does not quote either side of it", () => {
    // Read by the rules alone: the learned model may doubt one side and so break the tie itself.
    const tie = review("tie", 5, "The booking was seamless. The booking was a hassle.");
    const rulesOnly = { ...input, content: { ...input.content, model: undefined } };
    expect(quotes([tie], "scheduling", rulesOnly)).toEqual({ counts: [1, 0], quoted: [] });
  });

  it("quotes a sentence whose own words say it", () => {
    expect(quotes([review("plain", 3, "Finding a parking spot was a nightmare.")], "location")).toEqual({
      counts: [0, 1],
      quoted: ["Finding a parking spot was a nightmare."],
    });
  });

  it("counts praise in a 1- or 2-star review and a complaint in a 4- or 5-star review, but quotes neither", () => {
    for (const rating of [1, 2]) {
      expect(quotes([review("praise", rating, "The front desk staff were friendly.")], "staff")).toEqual({
        counts: [1, 0],
        quoted: [],
      });
    }
    for (const rating of [4, 5]) {
      expect(quotes([review("complaint", rating, "Finding a parking spot was a nightmare.")], "location")).toEqual({
        counts: [0, 1],
        quoted: [],
      });
    }
    // A 3-star review may say either, and be quoted for it.
    expect(quotes([review("mixed", 3, "The front desk staff were friendly.")], "staff").quoted).toEqual([
      "The front desk staff were friendly.",
    ]);
  });

  it("quotes, of the clauses a review's reading rests on, the strongest one the rating supports", () => {
    const mixed = review(
      "two",
      5,
      "The front desk staff were friendly and so helpful. The receptionist was rude once.",
    );
    const { quoted } = quotes([mixed], "staff");
    expect(quoted).toEqual(["The front desk staff were friendly and so helpful."]);
  });

  it("shows one wording once, however many reviews use it", () => {
    // 2,000 generated reviews showed "Real results, not just a day of relief." three times over.
    const same = [
      "Always on time, never waited more than 5 minutes.",
      "Always on time, never waited more than 4 minutes.",
    ];
    const reviews = [
      review("a", 5, same[0] as string),
      review("b", 5, same[0] as string),
      review("c", 5, same[1] as string),
      review("d", 4, "The online booking is easy."),
      review("e", 3, `That said, ${(same[0] as string).toLowerCase()}`),
    ];
    const { counts, quoted } = quotes(reviews, "scheduling");
    expect(counts).toEqual([5, 0]);
    expect(quoted).toHaveLength(2);
    expect(quoted).toContain("The online booking is easy.");
  });
});

describe("the sentence each review's reading rests on", () => {
  it("is the clause that most strongly says the review's reading, with its place in the sentence", () => {
    const text = "Dr. Kim is kind, but the billing office was a nightmare. The invoice was fine.";
    const { counted, reviews } = analyzeReviews({ ...input, reviews: [review("said", 2, text)] });
    const billing = reviews[0]?.aspects.find((a) => a.id === "billing");
    expect(billing?.sentiment).toBe("negative");
    const read = (id: string) => {
      const c = counted.get("said")?.get(id);
      return c && [c.sentence, c.sentence.slice(c.span[0], c.span[1])];
    };
    expect(read("billing")).toEqual([
      "Dr. Kim is kind, but the billing office was a nightmare.",
      "but the billing office was a nightmare.",
    ]);
    expect(read("care")).toEqual(["Dr. Kim is kind, but the billing office was a nightmare.", "Dr. Kim is kind,"]);
  });
});
