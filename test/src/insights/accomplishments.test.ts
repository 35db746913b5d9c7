import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { plainReview, projectInsights } from "../../helpers/project-insights.ts";

/**
 * A review that tells the condition, then the patient doing in full what it had stopped ("Performed
 * all three nights", "ran a PR"), tells a good result though that sentence names no condition
 * (issue 31: a five-star review that says the patient finished a race weeks later). Sentences
 * written for this test.
 */
const project = await projectInsights();
const both = createAnnotator(project.insights, project.content.business, createAnalyzer());
const sideOf = (text: string, rating: number) =>
  both.annotate(plainReview(text, rating)).aspects.find((a) => a.id === "pain-relief")?.sentiment;

const show = "My hip flexors were a mess before a big show. Performed all three nights.";

describe("a deed done in full after the condition told", () => {
  it("reads as a good result in a review of four or five stars", () => {
    expect(sideOf(show, 5)).toBe("positive");
    expect(sideOf("Pulled my hamstring two weeks before regionals. Ran the whole race and set a PR.", 4)).toBe(
      "positive",
    );
  });

  it("reads no deed denied or wanted, nor one in a bitter review", () => {
    const deed = (text: string, rating: number) =>
      explainReview(both, project.insights.aspects, plainReview(text, rating)).some((l) => l.includes("a deed done"));
    expect(deed(show, 5)).toBe(true);
    expect(deed("My hip flexors were a mess before a big show. I couldn't perform all three nights.", 5)).toBe(false);
    expect(deed("My hip flexors were a mess before a big show. I want to perform all three nights.", 5)).toBe(false);
    expect(deed(show, 2)).toBe(false);
  });

  it("says why in --explain, and is no quote", () => {
    const lines = explainReview(both, project.insights.aspects, plainReview(show, 5)).join("\n");
    expect(lines).toMatch(/pain-relief +positive +\+0\.72 +a deed done in full after the condition the review told/);
    const mentions = both.annotate(plainReview(show, 5)).mentions;
    expect(mentions.some((m) => m.sentence.startsWith("Performed") && m.confident)).toBe(false);
  });
});
