import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { plainReview, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * Words of the domain lexicon (content/insights/sentiment.yaml, aspects.yaml) that wink's general
 * one reads otherwise or not at all, in 3-star reviews so the rating cannot decide; sentences
 * written for this test.
 */
const { insights, business, analyzer } = await rulesOnly();
const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
const read = (text: string) => rules.annotate(plainReview(text, 3)).aspects.map((a) => `${a.id}:${a.sentiment}`);

describe("price compared", () => {
  it("reads cheaper and cheapest as praise of the price, and their negation as a complaint", () => {
    expect(read("Cheapest chiropractor in the county.")).toEqual(["billing:positive"]);
    expect(read("The ten-visit plan came out cheaper than my physio.")).toEqual(["billing:positive"]);
    expect(read("They are not the cheapest around.")).toEqual(["billing:negative"]);
  });
});
