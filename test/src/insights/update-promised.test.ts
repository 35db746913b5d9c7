import { beforeAll, describe, expect, it } from "vitest";
import { type Annotator, createAnnotator } from "../../../src/insights/annotate.ts";
import type { Analyzer, Clause } from "../../../src/insights/nlp.ts";
import { promisesUpdate } from "../../../src/insights/update-promised.ts";
import { blankClauseModels, plainReview, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * A promise to update the review leaves the result open: the models' side and the rating's go, the
 * rules' own words stay. Clause models that read every clause positive stand in for the trained
 * ones; sentences written for this test.
 */
let analyzer: Analyzer;
let rules: Annotator;
let eager: Annotator;

beforeAll(async () => {
  const only = await rulesOnly();
  analyzer = only.analyzer;
  rules = createAnnotator(only.insights, only.business, analyzer, { reading: "rules" });
  const model = blankClauseModels(only.ids, [0, 0, 3]);
  eager = createAnnotator({ ...only.insights, model }, only.business, analyzer);
});

const promises = (text: string) => promisesUpdate(analyzer.clauses(text)[0] as Clause);
const read = (annotator: Annotator, text: string, rating = 3) =>
  annotator.annotate(plainReview(text, rating)).aspects.map((a) => `${a.id}:${a.sentiment}`);

describe("a promise to update the review", () => {
  it("is the writer's own update of the review, not someone updating a file or a bill", () => {
    expect(promises("Will update after a couple more visits.")).toBe(true);
    expect(promises("I'll report back once the swelling has had time to settle.")).toBe(true);
    expect(promises("I'm going to post again in a month.")).toBe(true);
    expect(promises("ill update this when i know more")).toBe(true);
    expect(promises("The front desk will update my insurance details.")).toBe(false);
    expect(promises("I'll update my phone number with them.")).toBe(false);
  });

  it("takes away a side only the models gave the result", () => {
    const story = "My stiff hip is what I come in for.";
    expect(read(eager, story)).toContain("pain-relief:positive");
    expect(read(eager, `${story} Will update.`)).toContain("pain-relief:neutral");
  });

  it("keeps the rules' own words of a result, and the rating gives the result no side", () => {
    expect(read(rules, "My shoulder already hurts less. I'll update after a few more visits.")).toContain(
      "pain-relief:positive",
    );
    expect(read(rules, "Dr. Amy listened closely. The treatment plan is six visits, will update.", 5)).toContain(
      "pain-relief:neutral",
    );
  });

  it("leaves the result alone when the promise is about another aspect", () => {
    expect(read(eager, "My stiff hip is what I come in for. I'll update once the refund arrives.")).toContain(
      "pain-relief:positive",
    );
  });
});
