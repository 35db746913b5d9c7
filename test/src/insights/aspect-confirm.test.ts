import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { confirmExamples } from "../../../src/insights/aspect-confirm.ts";
import { annotateLabelled, type LabelledItem } from "../../../src/insights/evaluate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { compileModel, type LearnedModel, LearnedModelSchema } from "../../../src/insights/learned.ts";
import { LEARNED_DEFAULTS } from "../../../src/insights/learned-options.ts";
import { sentenceFeatures } from "../../../src/insights/sentence-about.ts";
import { blankClauseModels, plainReview as review, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * The confirm model (aspect-confirm.ts): which examples it learns from, and where it vetoes a rule's
 * aspect. Hand-made models fix what it says.
 */
const { insights, business, analyzer, ids } = await rulesOnly();

// The rules read location in the first sentence (named, no opinion word) and pain relief in the second.
const TEXT = "The parking lot was packed. Dr. Kim fixed my back.";

/** Clause models that keep every rule's aspect (0.3, above the aspect model's veto) and a confirm model reading `p` for `aspect` where `feature` is. */
function withConfirm(aspect: string, feature: string, p: number): LearnedModel {
  const bias = Math.log(0.9 / 0.1);
  return {
    ...blankClauseModels(ids, [0, 0, 0]),
    confirm: {
      features: [feature],
      models: ids.map((id) => ({ id, bias, weights: [id === aspect ? Math.log(p / (1 - p)) - bias : 0] })),
    },
  };
}
const read = (model: LearnedModel | undefined, text: string) =>
  createAnnotator({ ...insights, ...(model ? { model } : {}) }, business, analyzer)
    .annotate(review(text, 3))
    .aspects.map((a) => a.id);

describe("the confirm model", () => {
  it("vetoes a rule's aspect in a sentence it finds does not discuss it, below confirmBelow", () => {
    const below = LEARNED_DEFAULTS.confirmBelow - 0.05;
    expect(read(undefined, TEXT)).toEqual(["location", "pain-relief"]);
    expect(read(withConfirm("location", "parking", below), TEXT)).toEqual(["pain-relief"]);
    expect(read(withConfirm("location", "parking", LEARNED_DEFAULTS.confirmBelow + 0.05), TEXT)).toEqual([
      "location",
      "pain-relief",
    ]);
    // Its words decide, sentence by sentence: the same aspect told without them stays.
    expect(
      read(withConfirm("location", "parking", below), "The location is close to my house. Dr. Kim fixed my back."),
    ).toEqual(["location", "pain-relief"]);
    // Without a confirm model, the aspect model alone vetoes.
    expect(read(blankClauseModels(ids), TEXT)).toEqual(["location", "pain-relief"]);
  });

  it("is named by --explain where it vetoes, as the aspect model's veto is", () => {
    const explain = (model: LearnedModel) =>
      explainReview(
        createAnnotator({ ...insights, model }, business, analyzer),
        insights.aspects,
        review(TEXT, 3),
      ).join("\n");
    expect(explain(withConfirm("location", "parking", 0.3))).toMatch(
      /1\. The parking lot was packed\.\n +location +not read: the confirm model finds it named only in passing \(p 0\.3, under 0\.4\)\n +2\./,
    );
    const blank = blankClauseModels(ids);
    const unsure = {
      ...blank,
      aspects: {
        ...blank.aspects,
        models: blank.aspects.models.map((m) => (m.id === "location" ? { ...m, bias: Math.log(0.1 / 0.9) } : m)),
      },
    };
    expect(explain(unsure)).toMatch(
      /location +not read: the aspect model finds the sentence about something else \(p 0\.1, under 0\.2\)/,
    );
  });

  it("never vetoes a given name: no model that reads words knows every name", () => {
    const text = "Kayla at the front desk was a sweetheart.";
    const staff = read(blankClauseModels(ids), text);
    if (!staff.includes("staff")) throw new Error("the case needs staff found by a given name");
    expect(read(withConfirm("staff", "kayla", 0.01), text)).toContain("staff");
  });

  it("is part of the model file's format, compiled per aspect", () => {
    const model = withConfirm("location", "parking", 0.2);
    expect(LearnedModelSchema.parse(model)).toEqual(model);
    const compiled = compileModel(model);
    expect(compiled.confirm?.("location", ["parking", "lot"])).toBeCloseTo(0.2, 6);
    expect(compiled.confirm?.("location", ["office"])).toBeCloseTo(0.9, 6);
    expect(compiled.confirm?.("no-such-aspect", ["parking"])).toBeUndefined();
    expect(compileModel(blankClauseModels(ids)).confirm).toBeUndefined();
  });
});

describe("the confirm model's examples", () => {
  const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
  const example = (text: string, gold: Record<string, "positive" | "neutral" | "negative">) => {
    const item: LabelledItem = { line: 1, rating: 4, gold: new Map(Object.entries(gold)), text };
    const annotation = annotateLabelled(rules, item);
    const sentences = [...new Set(annotation.clauses.map((c) => c.sentenceIndex))].map((s) => {
      const ks = annotation.clauses.flatMap((c, k) => (c.sentenceIndex === s ? [k] : []));
      return { feats: sentenceFeatures(annotation.clauses, ks), clauses: ks };
    });
    return confirmExamples([{ item, weight: 2, annotation }], [sentences], ids);
  };

  it("are the sentences the rules read an aspect in, each teaching only the aspects read there", () => {
    const [parking, back, ...rest] = example(`${TEXT} I came on a Tuesday.`, { "pain-relief": "positive" });
    expect(rest).toEqual([]); // "I came on a Tuesday." names no aspect: no example
    expect(parking?.feats).toContain("parking");
    expect([...(parking?.aspects ?? [])]).toEqual([]); // location read, not in the gold: a negative
    expect(ids.filter((id) => !parking?.unknown?.has(id))).toEqual(["location"]);
    expect([...(back?.aspects ?? [])]).toEqual(["pain-relief"]);
    expect(ids.filter((id) => !back?.unknown?.has(id))).toEqual(["pain-relief"]);
    expect(back?.weight).toBe(2);
  });
});
