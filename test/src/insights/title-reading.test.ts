import { describe, expect, it } from "vitest";
import { createAnnotator, type ReviewInput } from "../../../src/insights/annotate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { plainReview, projectInsights } from "../../helpers/project-insights.ts";

/**
 * A review's title is read as its first sentence only when it names an aspect. A title that names
 * none ("My visit", "Five stars") says nothing of any aspect's side; read as a sentence, it moved
 * where the story and the outcome seemed to stand, and a one-star "Good. Scheduling was easy." was
 * read as a scheduling complaint. With the project's own content and models.
 */
const { content, insights } = await projectInsights();
const annotator = createAnnotator(insights, content.business, createAnalyzer());
const titled = (title: string, text: string, rating: number): ReviewInput => ({ ...plainReview(text, rating), title });
const read = (r: ReviewInput) => annotator.annotate(r).aspects.map((a) => `${a.id}:${a.sentiment}:${a.score}`);

const TEXTS = [
  "Scheduling was easy.",
  "The wait was over an hour and nobody said sorry.",
  "I came in with sciatica. After four visits I can sit through a movie again. The front desk is lovely.",
  "Fear of being cracked kept me away for years, but Dr. Patel was gentle. Parking is a nightmare though.",
  "billing messed up my claim twice smh. neck feels better tho",
];

describe("a review's title", () => {
  it("that names no aspect leaves the reading as it is without a title, at every rating", () => {
    for (const title of ["My visit", "Good", "Five stars!", "Review", "Well, well"]) {
      for (const text of TEXTS) {
        for (const rating of [1, 3, 5]) {
          expect(read(titled(title, text, rating)), `${title} / ${text} / ${rating}`).toEqual(
            read(plainReview(text, rating)),
          );
        }
      }
    }
  });

  it("that names an aspect is read as the first sentence", () => {
    const r = annotator.annotate(titled("Rude front desk", "Scheduling was easy.", 3));
    expect(r.titleRead).toBe(true);
    expect(r.aspects.map((a) => `${a.id}:${a.sentiment}`)).toEqual(["scheduling:positive", "staff:negative"]);
  });

  it("keeps its explicit side at one star when the title names no aspect", () => {
    const r = annotator.annotate(titled("Good", "Scheduling was easy.", 1));
    expect(r.titleRead).toBe(false);
    expect(r.aspects.map((a) => `${a.id}:${a.sentiment}`)).toEqual(["scheduling:positive"]);
  });

  it("is said to be left unread by --explain, and a read one is marked as the title", () => {
    const unread = explainReview(annotator, insights.aspects, titled("My visit", "Scheduling was easy.", 3));
    expect(unread).toContain('  (title "My visit": names no aspect, not read)');
    expect(unread).toContain("  1. Scheduling was easy.");
    const readTitle = explainReview(annotator, insights.aspects, titled("Rude front desk", "Scheduling was easy.", 3));
    expect(readTitle).toContain("  1. Rude front desk (title)");
    expect(readTitle).toContain("  2. Scheduling was easy.");
  });
});
