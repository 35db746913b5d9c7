import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { plainReview, projectInsights } from "../../helpers/project-insights.ts";

/** Words in single quotation marks are someone else's: the writer reports them, so they are never quoted as theirs. */
const { content, insights } = await projectInsights();
const annotator = createAnnotator(insights, content.business, createAnalyzer());
const quoted = (text: string, rating = 3) =>
  annotator
    .annotate(plainReview(text, rating))
    .mentions.filter((m) => m.confident)
    .map((m) => `${insights.aspects[m.aspect]?.id}${m.score > 0 ? "+" : "-"} ${m.sentence.slice(...m.span)}`);

describe("a clause whose opinion words are someone else's, in single quotation marks", () => {
  it("is no quote of the writer's praise", () => {
    for (const [open, close] of [
      ["'", "'"],
      ["‘", "’"],
    ]) {
      const text = `My friend said ${open}Dr. Patel is amazing${close} but I found him rude.`;
      expect(quoted(text), text).toEqual(["care- but I found him rude."]);
    }
    // A mocked name for what was sold, at 1 star.
    expect(
      quoted("went in for a migraine and he spent the whole time trying to sell me a 'wellness membership'", 1),
    ).not.toContainEqual(expect.stringMatching(/^billing/));
  });

  it("leaves apostrophes and the writer's own words around a quotation alone", () => {
    expect(quoted("The doctors' office was lovely.", 4)).toContain("facility+ The doctors' office was lovely.");
    expect(quoted("It's a lovely office and the staff are kind.", 4).sort()).toEqual([
      "facility+ It's a lovely office and the staff are kind.",
      "staff+ It's a lovely office and the staff are kind.",
    ]);
    expect(quoted("They call it 'the spa', and the staff really are lovely.", 4)).toContain(
      "staff+ They call it 'the spa', and the staff really are lovely.",
    );
  });
});
