import { describe, expect, it } from "vitest";
import { compileModel, features, type LearnedModel } from "../../../src/insights/learned.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { segments } from "../../../src/insights/polarity-features.ts";
import { type TrainOptions, trainAspects, trainPolarity } from "../../../src/insights/training.ts";

const analyzer = createAnalyzer();
const featuresOf = (text: string) => {
  const cs = analyzer.clauses(text);
  const first = cs[0];
  const last = cs[cs.length - 1];
  if (!first || !last) return [];
  return features(first.tokens, first.start, last.end);
};
const segmentTexts = (text: string) => {
  const [c] = analyzer.clauses(text);
  if (!c) return [];
  return segments(c.tokens, c.start, c.end).map(([a, b]) => c.tokens.values.slice(a, b).join(" "));
};

describe("features", () => {
  it("marks words in a negation scope, which ends at punctuation", () => {
    const f = featuresOf("The receptionist was not friendly, but kind.");
    expect(f).toContain("not_friendly");
    expect(f).toContain("kind");
    expect(f).not.toContain("not_kind");
    expect(f).not.toContain("friendly");
  });

  it("gives numbers and money shapes, so amounts not seen in training still count", () => {
    const f = featuresOf("The bill was $240 for forty minutes.");
    expect(f).toEqual(expect.arrayContaining(["#money", "#num", "#count", "forty", "#money_#num"]));
  });

  it("includes neighbouring pairs", () => {
    expect(featuresOf("Three weeks out.")).toEqual(expect.arrayContaining(["three_week", "week_out"]));
  });
});

describe("segments", () => {
  it("cuts a clause at punctuation and joining words", () => {
    expect(segmentTexts("Warm room, skilled hands, cold reception.")).toEqual([
      "Warm room",
      "skilled hands",
      "cold reception",
    ]);
    expect(segmentTexts("The doctor listened and the desk was rude")).toEqual([
      "The doctor listened",
      "and the desk was rude",
    ]);
  });

  it("gives the whole clause when there is nothing to cut", () => {
    expect(segmentTexts("Lovely staff")).toEqual(["Lovely staff"]);
  });
});

describe("train", () => {
  const polarity = [
    { feats: ["great", "doctor"], polarity: "positive" as const },
    { feats: ["great", "desk"], polarity: "positive" as const },
    { feats: ["rude", "desk"], polarity: "negative" as const },
    { feats: ["rude", "doctor"], polarity: "negative" as const },
    { feats: ["desk", "open"], polarity: "neutral" as const },
    { feats: ["doctor", "open"], polarity: "neutral" as const },
  ];
  const aspects = [
    { feats: ["great", "desk"], aspects: new Set(["staff"]) },
    { feats: ["rude", "desk"], aspects: new Set(["staff"]) },
    { feats: ["great", "doctor"], aspects: new Set(["care"]) },
    { feats: ["rude", "doctor"], aspects: new Set(["care"]) },
  ];
  const options = { minCount: 2, l2: 0.0005, steps: 300, rate: 0.5 };
  const train = (o: TrainOptions = options): LearnedModel => ({
    version: 2,
    trained_on: ["t"],
    polarity: trainPolarity(polarity, o),
    aspects: trainAspects(aspects, ["care", "staff"], o),
  });

  it("learns what separates the examples", () => {
    const model = compileModel(train());
    const [neg, neu, pos] = model.polarity(["great"]) as number[];
    expect(pos).toBeGreaterThan(0.5);
    expect(pos).toBeGreaterThan(neg as number);
    expect((model.polarity(["rude"]) as number[])[0]).toBeGreaterThan(0.5);
    expect(neu).toBeLessThan(0.5);
    expect(model.aspect("staff", ["desk"])).toBeGreaterThan(0.5);
    expect(model.aspect("staff", ["doctor"])).toBeLessThan(0.5);
    expect(model.aspect("billing", ["desk"])).toBeUndefined();
    // All aspects at once are each aspect asked alone; an id the model lacks reads as 1 (no veto).
    const feats = ["rude", "desk", "unknown"];
    expect(model.aspects(["staff", "care", "billing"], feats)).toEqual([
      model.aspect("staff", feats),
      model.aspect("care", feats),
      1,
    ]);
  });

  it("is deterministic: the same examples give the same weights", () => {
    const a = train();
    const b = train();
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.polarity.features).toEqual([...a.polarity.features].sort());
  });

  it("drops features seen in fewer examples than minCount", () => {
    const model = train({ ...options, minCount: 3 });
    expect(model.polarity.features).toEqual(["desk", "doctor"]);
    expect(model.aspects.features).toEqual([]);
  });
});
