import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { createCountedSentences } from "../../../src/insights/counted.ts";
import { withEditorLabels } from "../../../src/insights/editor-labels.ts";
import { parseLabelled } from "../../../src/insights/evaluate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { compileModel, type LearnedModel, LearnedModelSchema } from "../../../src/insights/learned.ts";
import {
  PRESENCE_BELOW,
  PRESENCE_ID,
  PRESENCE_KEEP_SCORE,
  presenceExamples,
  presenceFeatures,
} from "../../../src/insights/review-presence.ts";
import { itemEvidence } from "../../../src/insights/review-verdict.ts";
import { trainOn } from "../../../src/insights/training.ts";
import { blankClauseModels, plainReview as review, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * Whether a whole review discusses an aspect (issue 31): the presence model's features, where it
 * drops an aspect and where it may not, and how it is trained. Hand-made models fix what it says.
 */
const { insights, business, analyzer, ids } = await rulesOnly();

/**
 * Clause models that find nothing by themselves and lean positive without being sure of it, so they
 * neither overrule nor doubt the rules' praise.
 */
const clauseModels = () => blankClauseModels(ids, [0, 0, 0.5]);

/** A presence model that reads `p` for an aspect with `feature`, and 0.9 for any other. */
function withPresence(feature: string, p: number): LearnedModel {
  const bias = Math.log(0.9 / 0.1);
  const weight = Math.log(p / (1 - p)) - bias;
  return {
    ...clauseModels(),
    presence: { features: [feature], models: [{ id: PRESENCE_ID, bias, weights: [weight] }] },
  };
}

// Four sentences; care is named in passing in the second, by a word of its own ("the doctor").
const PASSING =
  "I hurt my back lifting boxes at work. My wife drove me to the doctor's office the first time. Three visits later the pain was gone. I am back at work.";
// Care read from strong words of the rules ("wonderful", 0.91) in a review of three sentences.
const EXPLICIT = "My neck was stiff for weeks. Dr. Kim was wonderful. I can turn my head again.";
// The same review with weaker words ("fine", 0.54).
const WEAKER = EXPLICIT.replace("wonderful", "fine");

const annotate = (model: LearnedModel, text: string, rating = 5) =>
  createAnnotator({ ...insights, model }, business, analyzer).annotate(review(text, rating));
const sideOf = (model: LearnedModel, text: string, aspect: string, rating = 5) =>
  annotate(model, text, rating).aspects.find((x) => x.id === aspect)?.sentiment;

describe("the presence model's features", () => {
  it("tell how the aspect was found, how sure the aspect model is, where it stands and the rating", () => {
    const a = createAnnotator(insights, business, analyzer, { reading: "rules" }).annotate(review(EXPLICIT, 5));
    const care = ids.indexOf("care");
    const feats = presenceFeatures({ ...a, rating: 5 }, care, "care", () => 0.7);
    expect(feats).toContain("how:named");
    expect(feats).toContain("how:named|x:true|polar:true");
    expect(feats).toContain("about:6");
    expect(feats).toContain("where:story");
    expect(feats).toContain("aspect:care|rating:5");
    expect(feats).toContain("side:positive|rating:5");
    const unsure = presenceFeatures({ ...a, rating: 2 }, care, "care", () => 0.1);
    expect(unsure).toContain("about:0");
    expect(unsure).toContain("aspect:care|rating:2");
  });
});

describe("dropping an aspect a review names in passing", () => {
  it("drops it below PRESENCE_BELOW, and --explain says why", () => {
    const base = annotate(clauseModels(), PASSING);
    if (!base.aspects.some((x) => x.id === "care")) throw new Error("the case needs care found in passing");
    const dropped = annotate(withPresence("aspect:care", PRESENCE_BELOW - 0.05), PASSING);
    expect(dropped.aspects.map((x) => x.id)).not.toContain("care");
    expect(dropped.scores.has(ids.indexOf("care"))).toBe(false);
    expect(dropped.dropped.get(ids.indexOf("care"))).toBeCloseTo(PRESENCE_BELOW - 0.05, 2);
    // Every other aspect is as the clauses read it.
    expect(dropped.aspects).toEqual(base.aspects.filter((x) => x.id !== "care"));
    const model = withPresence("aspect:care", PRESENCE_BELOW - 0.05);
    const explained = explainReview(
      createAnnotator({ ...insights, model }, business, analyzer),
      insights.aspects,
      review(PASSING, 5),
    ).join("\n");
    expect(explained).toMatch(/care +dropped: the presence model finds the review discusses it at p 0\.15 only/);
    // Just above the bar, it stays.
    expect(sideOf(withPresence("aspect:care", PRESENCE_BELOW + 0.05), PASSING, "care")).toBeDefined();
  });

  it("keeps its clauses as mentions: a quote for an editor who labels it, none for the machine", () => {
    const care = ids.indexOf("care");
    const a = annotate(withPresence("aspect:care", 0.01), PASSING);
    expect(a.mentions.some((m) => m.aspect === care)).toBe(true);
    const indexOf = new Map(ids.map((id, i) => [id, i]));
    const countedOf = createCountedSentences(business, indexOf);
    const plain = review(PASSING, 5);
    const summary = { ...a, topics: [], counted: countedOf(plain, a.aspects, a.mentions) };
    const labelled = withEditorLabels(
      summary,
      [{ id: "care", sentiment: "neutral", score: 0, source: "editor" }],
      indexOf,
      (aspects, mentions) => countedOf(plain, aspects, mentions),
    );
    expect(labelled.mentions.filter((m) => m.aspect === care).map((m) => m.sentence)).toEqual(
      a.mentions.filter((m) => m.aspect === care).map((m) => m.sentence),
    );
    expect(labelled.aspects).toEqual([{ id: "care", sentiment: "neutral", score: 0, source: "editor" }]);
  });

  it("never drops an aspect a clause reads from strong words of the rules", () => {
    const score = (text: string) => annotate(clauseModels(), text).aspects.find((x) => x.id === "care")?.score ?? 0;
    if (score(EXPLICIT) < PRESENCE_KEEP_SCORE || score(WEAKER) >= PRESENCE_KEEP_SCORE)
      throw new Error("the case needs care read strongly in one review and weakly in the other");
    expect(sideOf(withPresence("aspect:care", 0.01), EXPLICIT, "care")).toBe("positive");
    expect(sideOf(withPresence("aspect:care", 0.01), WEAKER, "care")).toBeUndefined();
  });

  it("leaves reviews of one or two sentences, and models without a presence part, as read", () => {
    const short = "Dr. Kim was wonderful. My back is fine now.";
    expect(sideOf(withPresence("aspect:care", 0.01), short, "care")).toBe("positive");
    expect(annotate(clauseModels(), PASSING).dropped.size).toBe(0);
  });
});

describe("training the presence model", () => {
  const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
  const lines = [
    `5 | pain-relief:+ | ${PASSING}`,
    `5 | pain-relief:+ care:+ | ${EXPLICIT}`,
    "1 | care:- | He was rough and never listened.",
  ];
  const items = parseLabelled(lines.join("\n"), "reviews.txt", ids);

  it("learns from every aspect found in a review of three sentences or more, discussed when the gold has it", () => {
    const model = compileModel(clauseModels());
    const examples = items.flatMap((item) => presenceExamples(item, itemEvidence(rules, item), model, ids, 2));
    const discussed = (e: (typeof examples)[number]) => e.aspects.has(PRESENCE_ID);
    // The one-sentence item gives none; the passing mention of care is not discussed.
    const careOf = examples.filter((e) => e.feats.includes("aspect:care|rating:5"));
    expect(careOf.map(discussed).sort()).toEqual([false, true]);
    expect(examples.every((e) => e.weight === 2)).toBe(true);
    expect(examples.some((e) => e.feats.includes("aspect:care|rating:1"))).toBe(false);
  });

  it("is trained with the review model, stored in the model file and read back", () => {
    const options = { minCount: 1, l2: 0.0005, steps: 20, rate: 0.5 };
    const readWith = (model: LearnedModel) => createAnnotator({ ...insights, model }, business, analyzer);
    const model = trainOn([{ name: "reviews.txt", items }], rules, ids, options, readWith);
    expect(model.presence?.models.map((m) => m.id)).toEqual([PRESENCE_ID]);
    expect(model.presence?.features).toContain("aspect:care|rating:5");
    expect(LearnedModelSchema.parse(model)).toEqual(model);
    // Read back as the sigmoid of the bias and the features' weights.
    const { features, models } = model.presence as NonNullable<LearnedModel["presence"]>;
    const first = models[0] as { bias: number; weights: number[] };
    const feats = ["aspect:care|rating:5", "how:named"];
    const z = feats.reduce((sum, f) => sum + (first.weights[features.indexOf(f)] ?? 0), first.bias);
    expect(compileModel(model).presence?.(feats)).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(trainOn([{ name: "reviews.txt", items }], rules, ids, options).presence).toBeUndefined();
  });
});
