import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { plainReview, projectInsights } from "../../helpers/project-insights.ts";

/**
 * A clause that names an aspect only by a symptom tells why someone came: a word of wink's general
 * lexicon there describes the symptom or the story ("figured I was fine", "the works"), not how the
 * treatment turned out, so it is never quoted, with the project's own content and models.
 */
const { content, insights } = await projectInsights();
const annotator = createAnnotator(insights, content.business, createAnalyzer());
const read = (text: string, rating = 5) => {
  const a = annotator.annotate(plainReview(text, rating));
  return {
    aspects: a.aspects.map((x) => `${x.id}:${x.sentiment}`),
    quoted: a.mentions.filter((m) => m.confident).map((m) => `${insights.aspects[m.aspect]?.id}`),
  };
};

describe("a clause that names an aspect only by a symptom", () => {
  it("is no quote when only wink's general words judge it", () => {
    // From the project's own reviews: each was quoted as praise of pain relief.
    for (const text of [
      "Got hit at a stoplight in Tualatin and figured I was fine until two days later, when I woke up unable to turn my neck.",
      "Tennis three times a week plus tennis elbow meant five months in a brace.",
    ]) {
      expect(read(text).quoted, text).not.toContain("pain-relief");
    }
  });

  it("is still quoted when the project's own words tell how it turned out", () => {
    expect(read("My neck finally turns again.").quoted).toEqual(["pain-relief"]);
    expect(read("My hip pain basically disappeared.").quoted).toEqual(["pain-relief"]);
    expect(read("Eight visits and my back pain is exactly the same.", 1).quoted).toEqual(["pain-relief"]);
  });

  it("leaves a practitioner's name and an aspect's own terms judged by any word", () => {
    expect(read("Dr. Patel is excellent.").quoted).toEqual(["care"]);
    expect(read("The front desk is lovely.").quoted).toEqual(["staff"]);
  });
});
