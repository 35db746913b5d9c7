import { describe, expect, it } from "vitest";
import { ContentError } from "../../../src/content/errors.ts";
import { EMPTY_LEXICON } from "../../../src/insights/content-schema.ts";
import { type RawInsightsContent, validateInsightsContent } from "../../../src/insights/validate-content.ts";

const ASPECTS = "content/insights/aspects.yaml";
const FAQ = "content/insights/faq.yaml";
const SUMMARY = "content/insights/summary.md";
const LEXICON = "content/insights/sentiment.yaml";
const REVIEWS = new Set(["2025-01-02-ana", "2025-02-03-ben"]);

const GOOD_ASPECTS = `aspects:
  - id: billing
    label: Billing
    terms: [bill, insurance]
  - id: care
    label: Care
    technician_names: true
    terms: [explained]
    neutral_terms: [pain]
`;
const GOOD_FAQ = `faq:
  - question: Is billing clear?
    answer: Mostly.
    evidence: [2025-01-02-ana]
`;

function raw(
  files: { aspects?: string; lexicon?: string; faq?: string; summary?: string },
  strays: string[] = [],
): RawInsightsContent {
  return {
    files: {
      ...(files.lexicon === undefined ? {} : { "sentiment.yaml": { file: LEXICON, text: files.lexicon } }),
      ...(files.aspects === undefined ? {} : { "aspects.yaml": { file: ASPECTS, text: files.aspects } }),
      ...(files.faq === undefined ? {} : { "faq.yaml": { file: FAQ, text: files.faq } }),
      ...(files.summary === undefined ? {} : { "summary.md": { file: SUMMARY, text: files.summary } }),
    },
    strays,
  };
}

function problems(input: RawInsightsContent): readonly string[] {
  try {
    validateInsightsContent(input, REVIEWS);
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    return err.problems;
  }
  throw new Error("expected validation to fail");
}

describe("validateInsightsContent", () => {
  it("accepts valid files and fills defaults", () => {
    const content = validateInsightsContent(
      raw({ aspects: GOOD_ASPECTS, faq: GOOD_FAQ, summary: "  Text.\n" }),
      REVIEWS,
    );
    expect(content.aspects[0]).toEqual({
      id: "billing",
      label: "Billing",
      terms: ["bill", "insurance"],
      neutral_terms: [],
      technician_names: false,
      given_names: [],
    });
    expect(content.summary).toBe("Text.");
    expect(content.faq[0]?.evidence).toEqual(["2025-01-02-ana"]);
  });

  it("treats every file as optional", () => {
    expect(validateInsightsContent(raw({}), REVIEWS)).toEqual({
      aspects: [],
      lexicon: EMPTY_LEXICON,
      faq: [],
      summary: "",
    });
  });

  it("reads the reviewed dates of the FAQ and of the summary's front matter", () => {
    const content = validateInsightsContent(
      raw({ faq: `reviewed: 2026-11-20\n${GOOD_FAQ}`, summary: "---\nreviewed: 2026-11-02\n---\nText.\n" }),
      REVIEWS,
    );
    expect(content).toMatchObject({ summary: "Text.", summary_reviewed: "2026-11-02", faq_reviewed: "2026-11-20" });
    expect(validateInsightsContent(raw({ summary: "Text." }), REVIEWS)).not.toHaveProperty("summary_reviewed");
  });

  it("names the file and field of a reviewed date that is not a date", () => {
    expect(problems(raw({ summary: "---\nreviewed: 2026-02-30\n---\nText.\n" }))).toEqual([
      `${SUMMARY}: line 2: reviewed: expected a real calendar date as YYYY-MM-DD, got "2026-02-30"`,
    ]);
    expect(problems(raw({ faq: `reviewed: soon\n${GOOD_FAQ}` }))).toEqual([
      `${FAQ}: line 1: reviewed: expected a real calendar date as YYYY-MM-DD, got "soon"`,
    ]);
  });

  it("refuses in the summary's body, which is no YAML, the characters no content may hold, at their line", () => {
    expect(problems(raw({ summary: "---\nreviewed: 2026-11-02\n---\nMostly praise.\nAn odd \uFFFF here.\n" }))).toEqual(
      [
        `${SUMMARY}: line 5: this line holds a noncharacter (U+FFFF), which is not text and which strict JSON readers refuse — delete it (it may be invisible: retype the words around it)`,
      ],
    );
    expect(problems(raw({ summary: "Text with \u202Ean override.\n" }))[0]).toMatch(
      new RegExp(`^${SUMMARY}: line 1: this line holds a bidirectional-text control \\(U\\+202E`),
    );
  });

  it("names the file, field and value of a schema error", () => {
    expect(problems(raw({ aspects: "aspects:\n  - id: Billing Stuff\n    label: Billing\n    terms: []\n" }))).toEqual([
      `${ASPECTS}: line 2: aspects[0].id: expected a kebab-case id of a-z, 0-9 and single hyphens, got "Billing Stuff"`,
      `${ASPECTS}: line 4: aspects[0].terms: expected at least one term, got []`,
    ]);
    expect(problems(raw({ aspects: "aspects:\n  - id: a\n    label: A\n    terms: ['!!']\n" }))).toEqual([
      `${ASPECTS}: line 4: aspects[0].terms[0]: expected a word or phrase with at least one letter or digit, got "!!"`,
    ]);
  });

  it("rejects duplicate aspect ids and a term listed twice, whatever its case", () => {
    const text = `${GOOD_ASPECTS}  - id: billing\n    label: Again\n    terms: [Insurance]\n`;
    expect(problems(raw({ aspects: text }))).toEqual([
      `${ASPECTS}: line 10: aspects[2].id: duplicate id of aspects[0], got "billing"`,
      `${ASPECTS}: line 12: aspects[2].terms[0]: duplicate term, already in aspects[0].terms[1] (billing), got "Insurance"`,
    ]);
  });

  it("rejects a given name that is also a term: a word is read one way", () => {
    const text = `${GOOD_ASPECTS}  - id: staff\n    label: Staff\n    terms: [desk]\n    given_names: [tina, Bill]\n`;
    expect(problems(raw({ aspects: text }))).toEqual([
      `${ASPECTS}: line 13: aspects[2].given_names[1]: duplicate term, already in aspects[0].terms[0] (billing), got "Bill"`,
    ]);
  });

  it("fails on FAQ evidence that names no review", () => {
    const text = `${GOOD_FAQ}  - question: Parking?\n    answer: Hard.\n    evidence: [2025-02-03-ben, 2025-09-09-nobody]\n`;
    expect(problems(raw({ faq: text }))).toEqual([
      `${FAQ}: line 7: faq[1].evidence[1]: unknown review id; no content/reviews/<year>/<id>.yaml has it, got "2025-09-09-nobody"`,
    ]);
  });

  it("reports bad YAML, an empty summary and misnamed files together", () => {
    expect(problems(raw({ faq: "faq: [unclosed", summary: "  \n" }, ["content/insights/aspects.yml"]))).toEqual([
      `content/insights/aspects.yml: (file): unknown insights file; expected one of aspects.yaml, sentiment.yaml, faq.yaml, summary.md, model.json, got "aspects.yml"`,
      `${FAQ}: line 1: the faq opens with [ but it is never closed — end it with ] on the same line`,
      `${SUMMARY}: (file): expected a non-empty editorial summary, got "  \\n"`,
    ]);
  });

  it("validates sentiment.yaml: its conditions must name an aspect, and a word may sit in one list only", () => {
    const lexicon = `conditions:
  - aspect: billing
    terms: [surprise bill]
  - aspect: pain-relief
    terms: [sciatica]
outcomes:
  positive: [gone]
  negative: [still, Gone]
words:
  positive: [worth it]
  negative: []
  neutral: [crack]
`;
    expect(problems(raw({ aspects: GOOD_ASPECTS, lexicon }))).toEqual([
      "content/insights/sentiment.yaml: line 12: words.neutral is not a known field — check its spelling or remove it (the fields here are positive, negative)",
    ]);
    const fixed = lexicon.replace("  neutral: [crack]\n", "neutral: [crack]\n");
    expect(problems(raw({ aspects: GOOD_ASPECTS, lexicon: fixed }))).toEqual([
      'content/insights/sentiment.yaml: line 4: conditions[1].aspect: unknown aspect id; valid ids are billing, care, got "pain-relief"',
      'content/insights/sentiment.yaml: line 8: outcomes.negative[1]: duplicate term, already in outcomes.positive[0], got "Gone"',
    ]);
    const good = validateInsightsContent(
      raw({ aspects: GOOD_ASPECTS, lexicon: fixed.replace("pain-relief", "care").replace(", Gone", "") }),
      REVIEWS,
    );
    expect(good.lexicon.conditions[1]).toEqual({
      aspect: "care",
      terms: ["sciatica"],
      needs_evidence: false,
      adjectives_judge: false,
    });
    expect(good.lexicon.neutral).toEqual(["crack"]);
  });
});

describe("model.json (the learned models)", () => {
  const MODEL = "content/insights/model.json";
  const model = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      version: 2,
      trained_on: ["x.txt"],
      polarity: { features: ["great", "rude"], bias: [0, 0, 0], weights: [0, 0, 1, 1, 0, 0] },
      aspects: { features: ["bill", "desk"], models: [{ id: "billing", bias: -1, weights: [0.5, 0] }] },
      ...over,
    });
  const withModel = (text: string): RawInsightsContent => {
    const r = raw({ aspects: GOOD_ASPECTS });
    r.files["model.json"] = { file: MODEL, text };
    return r;
  };

  it("is loaded when valid", () => {
    const content = validateInsightsContent(withModel(model()), REVIEWS);
    expect(content.model?.polarity.features).toEqual(["great", "rude"]);
  });

  it("names the file and the field of each problem, and how to write it again", () => {
    expect(problems(withModel("{not json"))[0]).toMatch(
      /^content\/insights\/model\.json: \(file\): not valid JSON .*run npm run train:insights/,
    );
    const parking = { features: ["lot"], models: [{ id: "parking", bias: 0, weights: [0] }] };
    expect(problems(withModel(model({ aspects: parking })))).toEqual([
      expect.stringMatching(
        /^content\/insights\/model\.json: aspects\.models\[0\]\.id: unknown aspect id; valid ids are billing, care; run npm run train:insights after renaming an aspect, got "parking"/,
      ),
    ]);
    expect(
      problems(withModel(model({ polarity: { features: ["great", "rude"], bias: [0, 0, 0], weights: [1] } }))),
    ).toEqual([
      expect.stringMatching(
        /^content\/insights\/model\.json: polarity\.weights: expected 6 weights \(3 per feature\), got 1/,
      ),
    ]);
    expect(problems(withModel(model({ version: 1 })))[0]).toMatch(/^content\/insights\/model\.json: version: /);
  });

  it("checks the review and presence parts: their weights per feature, and the presence model's one id", () => {
    const presence = { features: ["how:named"], models: [{ id: "discussed", bias: 0, weights: [0.5] }] };
    const review = { features: ["rating:5"], bias: [0, 0, 0], weights: [0, 0, 1] };
    expect(validateInsightsContent(withModel(model({ presence, review })), REVIEWS).model?.presence).toEqual(presence);
    const wrong = {
      features: ["how:named"],
      models: [
        { id: "present", bias: 0, weights: [0.5, 1] },
        { id: "discussed", bias: 0, weights: [0.5] },
      ],
    };
    expect(problems(withModel(model({ presence: wrong, review: { ...review, weights: [1] } })))).toEqual([
      `${MODEL}: review.weights: expected 3 weights (3 per feature), got 1`,
      `${MODEL}: presence.models[0].id: expected "discussed", got "present"`,
      `${MODEL}: presence.models[0].weights: expected 1 weights (1 per feature), got 2`,
      `${MODEL}: presence.models[1]: one model only, "discussed", got "discussed"`,
    ]);
  });
});
