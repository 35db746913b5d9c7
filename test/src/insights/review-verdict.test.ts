import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { parseLabelled } from "../../../src/insights/evaluate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { type LearnedModel, LearnedModelSchema } from "../../../src/insights/learned.ts";
import { LEARNED_DEFAULTS, LEARNED_SCORE } from "../../../src/insights/learned-options.ts";
import { explicit } from "../../../src/insights/polarity-features.ts";
import { REVERSE_CONFIDENCE, reviewFeatures } from "../../../src/insights/review-verdict.ts";
import { REVIEW_FOLDS, trainOn } from "../../../src/insights/training.ts";
import { blankClauseModels, plainReview, projectInsights, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * The whole review's reading of each aspect (issue 31): the review model's features, where it may
 * overrule the clauses' mean and where it may not, how it is trained, and the project's model on
 * reviews whose story comes before the outcome. Hand-made models fix what the model says.
 */
const { insights, business, analyzer, ids } = await rulesOnly();

const review = plainReview;

/** Clause models that find and judge nothing by themselves (every aspect at 0.3, sides even). */
const clauseModels = () => blankClauseModels(ids);

/** A review model that reads `side` (0 negative, 1 neutral, 2 positive) at probability `p` when `feature` is present. */
function withReview(feature: string, side: 0 | 1 | 2, p: number): LearnedModel {
  const weights = [0, 0, 0];
  weights[side] = Math.log((2 * p) / (1 - p));
  return { ...clauseModels(), review: { features: [feature], bias: [0, 0, 0], weights } };
}

const STORY = "My back pain was awful for a year. Dr. Kim fixed my back in three visits.";

describe("the review model's features", () => {
  it("tell the rating, the sides of the clauses, where they stand and the review's other aspects", () => {
    const a = createAnnotator(insights, business, analyzer, { reading: "rules" }).annotate(review(STORY, 5));
    const aspect = ids.indexOf("pain-relief");
    const feats = reviewFeatures({ ...a, rating: 5 }, aspect, "pain-relief");
    expect(feats).toContain("rating:5");
    expect(feats).toContain("len:2|rating:5");
    expect(feats).toContain("opens:-|rating:5");
    expect(feats).toContain("closes:+|rating:5");
    expect(feats.some((f) => /^pos:[12]\|neg:1$/.test(f))).toBe(true);
    expect(feats).toContain("aspect:pain-relief|rating:5");
    // Read at 3 stars, the same evidence tells no rating.
    const at3 = reviewFeatures({ ...a, rating: 3 }, aspect, "pain-relief");
    expect(at3).toContain("rating:3");
    expect(at3.some((f) => f.includes("rating:5"))).toBe(false);
  });
});

describe("the review model against the clauses' mean", () => {
  it("gives an aspect the side it reads from the whole review, and --explain says so", () => {
    const model = withReview("rating:5", 2, 0.9);
    const annotator = createAnnotator({ ...insights, model }, business, analyzer);
    const text = "My back was killing me. The pain was bad and getting worse. Three visits later it stopped.";
    const clausesOnly = createAnnotator({ ...insights, model: clauseModels() }, business, analyzer);
    const before = clausesOnly.annotate(review(text, 5)).aspects.find((x) => x.id === "pain-relief");
    const after = annotator.annotate(review(text, 5));
    const relief = after.aspects.find((x) => x.id === "pain-relief");
    if (before?.sentiment === "positive") throw new Error("the case needs clauses that do not read positive alone");
    expect(relief).toMatchObject({ sentiment: "positive", score: LEARNED_SCORE });
    expect(after.verdicts.get(ids.indexOf("pain-relief"))).toMatchObject({ side: "positive", from: before?.sentiment });
    expect(explainReview(annotator, insights.aspects, review(text, 5)).join("\n")).toMatch(
      new RegExp(
        `the review model read the whole review positive at p 0\\.9; its clauses alone read ${before?.sentiment}`,
      ),
    );
  });

  it("overrules explicit words only with stronger evidence than theirs, never by the rating alone", () => {
    const care = (model: LearnedModel, text: string) =>
      createAnnotator({ ...insights, model }, business, analyzer)
        .annotate(review(text, 5))
        .aspects.find((x) => x.id === "care")?.sentiment;
    const story = "Dr. Kim was rushed. I went back twice.";
    expect(care(withReview("rating:5", 2, LEARNED_DEFAULTS.explicitConfidence - 0.05), story)).toBe("negative");
    expect(care(withReview("rating:5", 2, 0.95), story)).toBe("positive");
    // One sentence: the rating is the only other evidence, so evidence that is only the rating's
    // cannot overrule the words, and evidence that holds without it can.
    expect(care(withReview("rating:5", 2, 0.95), "Dr. Kim was rushed.")).toBe("negative");
    expect(care(withReview("pos:0|neg:1", 2, 0.95), "Dr. Kim was rushed.")).toBe("positive");
  });

  it("keeps explicit words from being undone by a side only the learned models gave against them", () => {
    // Clause models that find care in a clause with "bit" and read it negative there, and agree with "lovely".
    const clauses = clauseModels();
    const care = ids.indexOf("care");
    const found: LearnedModel = {
      ...clauses,
      aspects: {
        features: ["bit"],
        models: clauses.aspects.models.map((m, i) => ({ ...m, weights: [i === care ? 5 : 0] })),
      },
      polarity: { features: ["bit", "lovely"], bias: [0, 0, 0], weights: [5, 0, 0, 0, 0, 5] },
    };
    const text = "Dr. Kim was lovely. I went back twice. Still, it was a bit much.";
    const read = (p: number) => {
      const model = { ...found, review: withReview("rating:5", 1, p).review };
      const a = createAnnotator({ ...insights, model }, business, analyzer).annotate(review(text, 5));
      const sides = a.readings
        .flat()
        .filter((r) => r.aspect === care && r.polar)
        .map((r) => r.learned ?? "rules");
      if (!sides.includes("found")) throw new Error("the case needs a reading the learned models found");
      return a.aspects.find((x) => x.id === "care")?.sentiment;
    };
    expect(read(LEARNED_DEFAULTS.explicitConfidence - 0.05)).toBe("positive");
    expect(read(0.95)).toBe("neutral");
  });

  it("turns explicit words to the opposite side only at REVERSE_CONFIDENCE, to neutral at the clause's bar", () => {
    const care = (side: 0 | 1, p: number) =>
      createAnnotator({ ...insights, model: withReview("rating:1", side, p) }, business, analyzer)
        .annotate(review("Dr. Kim was lovely. I went back twice.", 1))
        .aspects.find((x) => x.id === "care")?.sentiment;
    expect(care(0, REVERSE_CONFIDENCE - 0.05)).toBe("positive");
    expect(care(0, 0.95)).toBe("negative");
    expect(care(1, REVERSE_CONFIDENCE - 0.05)).toBe("neutral");
  });

  it("turns clauses that all read one side to the opposite side only at REVERSE_CONFIDENCE, explicit words or not", () => {
    // Words of both sides ("kind", "mortified") are no explicit evidence, but praise all the same.
    const text = "Dr. Kim was kind about it and looked mortified. I went back twice.";
    const care = (p: number) =>
      createAnnotator({ ...insights, model: withReview("rating:1", 0, p) }, business, analyzer)
        .annotate(review(text, 1))
        .aspects.find((x) => x.id === "care")?.sentiment;
    const clauses = createAnnotator({ ...insights, model: clauseModels() }, business, analyzer).annotate(
      review(text, 1),
    );
    const read = clauses.readings.flat().filter((r) => r.aspect === ids.indexOf("care") && r.polar);
    if (read.length !== 1 || read[0]?.score === undefined || read[0].score <= 0 || explicit(read[0]))
      throw new Error("the case needs one positive reading that is not explicit");
    expect(care(REVERSE_CONFIDENCE - 0.05)).toBe("positive");
    expect(care(0.95)).toBe("negative");
  });

  it("gives an aspect named only by a condition a side only at the probability a clause needs for it", () => {
    const relief = (p: number) =>
      createAnnotator({ ...insights, model: withReview("rating:5", 2, p) }, business, analyzer)
        .annotate(review("I came in with sciatica after a sports injury. Dr. Kim took a full history.", 5))
        .aspects.find((x) => x.id === "pain-relief")?.sentiment;
    expect(relief(LEARNED_DEFAULTS.conditionConfidence - 0.05)).toBe("neutral");
    expect(relief(0.95)).toBe("positive");
  });

  it("gives an aspect no clause of a longer review judges a side only at unjudgedConfidence", () => {
    // At 3 stars the rating breaks no tie: the clauses leave billing neutral.
    const billing = (p: number, text: string) =>
      createAnnotator({ ...insights, model: withReview("rating:3", 0, p) }, business, analyzer)
        .annotate(review(text, 3))
        .aspects.find((x) => x.id === "billing")?.sentiment;
    const three = "I paid by card. The receptionist was rude to me. I left without booking again.";
    const below = LEARNED_DEFAULTS.unjudgedConfidence - 0.05;
    expect(billing(below, three)).toBe("neutral");
    expect(billing(0.95, three)).toBe("negative");
    // Shorter reviews tell no story before an outcome: the review model's plurality is enough.
    expect(billing(below, "I paid by card. The receptionist was rude to me.")).toBe("negative");
  });

  it("leaves every aspect as its clauses read it when the model has no review part", () => {
    const a = createAnnotator({ ...insights, model: clauseModels() }, business, analyzer).annotate(review(STORY, 5));
    expect(a.verdicts.size).toBe(0);
  });
});

describe("training the review model", () => {
  it("reads each fold with clause models trained on the others, the same bytes twice", async () => {
    const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
    const lines = [
      "5 | pain-relief:+ | My back was killing me for months. Two visits and it is gone.",
      "5 | pain-relief:+ care:+ | I could hardly walk after the fall. Dr. Kim was careful and now I walk fine.",
      "1 | care:- | He was rough and never listened.",
      "2 | pain-relief:- | My neck hurt before and it still hurts now.",
      "4 | scheduling:+ | They saw me the same day.",
      "5 | pain-relief:+ | The sciatica was awful. It is gone now.",
    ];
    const set = { name: "reviews.txt", items: parseLabelled(lines.join("\n"), "reviews.txt", ids) };
    const options = { minCount: 1, l2: 0.0005, steps: 20, rate: 0.5 };
    const folds: LearnedModel[] = [];
    const readWith = (model: LearnedModel) => {
      folds.push(model);
      return createAnnotator({ ...insights, model }, business, analyzer);
    };
    const model = trainOn([set], rules, ids, options, readWith);
    expect(folds).toHaveLength(REVIEW_FOLDS);
    // Each fold's clause models lack a review part, so they read as the build did before it.
    expect(folds.every((m) => m.review === undefined)).toBe(true);
    expect(model.review?.features).toContain("rating:5");
    expect(model.trained_on.at(-1)).toContain(`"reviewFolds":${REVIEW_FOLDS}`);
    expect(LearnedModelSchema.parse(model)).toEqual(model);
    expect(JSON.stringify(trainOn([set], rules, ids, options, readWith))).toBe(JSON.stringify(model));
    // Without a reader, the clause models only.
    expect(trainOn([set], rules, ids, options).review).toBeUndefined();
  });
});

describe("the project's model on whole reviews", () => {
  it("reads a side the clauses alone miss or misread, from the rating and where the clauses stand", async () => {
    const { insights: withModel } = await projectInsights();
    const model = withModel.model as LearnedModel;
    const { review: _, ...clausesOnly } = model;
    const read = (m: LearnedModel, text: string, rating: number, aspect: string) =>
      createAnnotator({ ...withModel, model: m }, business, analyzer)
        .annotate(review(text, rating))
        .aspects.find((x) => x.id === aspect)?.sentiment;
    const cases: [text: string, rating: number, aspect: string, side: string][] = [
      // Sarcasm at one star: the same symptom before and after, and thanks. (The twenty-second
      // round's models no longer read "…came out with my neck in spasm. a week off work. great."
      // so; docs/insights.md, Known limits. Since the twenty-eighth round the clauses alone read
      // "…left with a stiff neck" as the condition taken away.)
      [
        "came in with a stiff neck, and after six visits i have a stiff neck and a lighter wallet. thanks guys.",
        1,
        "pain-relief",
        "negative",
      ],
      // The story first, the outcome told as a fact, at five stars.
      [
        "I hurt my neck at work last spring. Went here for a month. Back at work full time.",
        5,
        "pain-relief",
        "positive",
      ],
      [
        "Dr. Ames is calm and takes notes on everything. I pay out of pocket since my plan doesn't cover chiropractic, which is on my insurer, not them.",
        4,
        "billing",
        "neutral",
      ],
    ];
    for (const [text, rating, aspect, side] of cases) {
      expect(read(model, text, rating, aspect)).toBe(side);
      expect(read(clausesOnly, text, rating, aspect)).not.toBe(side);
    }
  });
});
