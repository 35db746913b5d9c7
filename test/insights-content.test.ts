import { describe, expect, it } from "vitest";
import { ContentError } from "../src/lib/content-errors.ts";
import { type RawInsightsContent, validateInsightsContent } from "../src/lib/insights-content.ts";

const ASPECTS = "content/insights/aspects.yaml";
const FAQ = "content/insights/faq.yaml";
const SUMMARY = "content/insights/summary.md";
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

function raw(files: { aspects?: string; faq?: string; summary?: string }, strays: string[] = []): RawInsightsContent {
  return {
    files: {
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
    });
    expect(content.summary).toBe("Text.");
    expect(content.faq[0]?.evidence).toEqual(["2025-01-02-ana"]);
  });

  it("treats every file as optional", () => {
    expect(validateInsightsContent(raw({}), REVIEWS)).toEqual({ aspects: [], faq: [], summary: "" });
  });

  it("names the file, field and value of a schema error", () => {
    expect(problems(raw({ aspects: "aspects:\n  - id: Billing Stuff\n    label: Billing\n    terms: []\n" }))).toEqual([
      `${ASPECTS}: aspects[0].id: expected a kebab-case id of a-z, 0-9 and single hyphens, got "Billing Stuff"`,
      `${ASPECTS}: aspects[0].terms: expected at least one term, got []`,
    ]);
    expect(problems(raw({ aspects: "aspects:\n  - id: a\n    label: A\n    terms: ['!!']\n" }))).toEqual([
      `${ASPECTS}: aspects[0].terms[0]: expected a word or phrase with at least one letter or digit, got "!!"`,
    ]);
  });

  it("rejects duplicate aspect ids and a term listed twice, whatever its case", () => {
    const text = `${GOOD_ASPECTS}  - id: billing\n    label: Again\n    terms: [Insurance]\n`;
    expect(problems(raw({ aspects: text }))).toEqual([
      `${ASPECTS}: aspects[2].id: duplicate id of aspects[0], got "billing"`,
      `${ASPECTS}: aspects[2].terms[0]: duplicate term, already in aspects[0].terms[1] (billing), got "Insurance"`,
    ]);
  });

  it("fails on FAQ evidence that names no review", () => {
    const text = `${GOOD_FAQ}  - question: Parking?\n    answer: Hard.\n    evidence: [2025-02-03-ben, 2025-09-09-nobody]\n`;
    expect(problems(raw({ faq: text }))).toEqual([
      `${FAQ}: faq[1].evidence[1]: unknown review id; no content/reviews/<year>/<id>.yaml has it, got "2025-09-09-nobody"`,
    ]);
  });

  it("reports bad YAML, an empty summary and misnamed files together", () => {
    expect(problems(raw({ faq: "faq: [unclosed", summary: "  \n" }, ["content/insights/aspects.yml"]))).toEqual([
      `content/insights/aspects.yml: (file): unknown insights file; expected one of aspects.yaml, faq.yaml, summary.md, got "aspects.yml"`,
      expect.stringMatching(/^content\/insights\/faq\.yaml: \(file\): invalid YAML: /),
      `${SUMMARY}: (file): expected a non-empty editorial summary, got "  \\n"`,
    ]);
  });
});
