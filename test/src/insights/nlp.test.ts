import { describe, expect, it } from "vitest";
import { excerpt } from "../../../src/insights/aspect-stats.ts";
import { compileTerms } from "../../../src/insights/aspects.ts";
import { clauseRanges } from "../../../src/insights/clause-cuts.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { mean, periodOf, round, trendPeriods } from "../../../src/insights/numbers.ts";
import { INSIGHTS_SECTIONS, InsightsSelectionSchema, selectSection } from "../../../src/insights/publish.ts";
import type { Insights } from "../../../src/insights/schema.ts";
import { divergingChart, signed } from "../../../src/insights/view.ts";

const analyzer = createAnalyzer();
const clauseTexts = (text: string) => analyzer.clauses(text).map((c) => c.text);

describe("clause splitting", () => {
  it("reads a word wink has no lemma for as its own lemma instead of failing the build", () => {
    // wink-eng-lite-web-model returns a null lemma for "didnt" before a comma.
    const [clause] = analyzer.clauses("i was hoping shoulder get better, it didnt, still cant lift arm over head");
    const { normals, lemmas } = clause?.tokens ?? { normals: [], lemmas: [] };
    expect(lemmas[(normals as string[]).indexOf("didnt")]).toBe("didnt");
    expect(lemmas.every((l) => typeof l === "string")).toBe(true);
  });

  it("reads the short forms patients type as the words they stand for, keeping the text as written", () => {
    const [clause] = analyzer.clauses("my appt w the chiro ran 2 hrs late, u kidding? walking distance from my apt");
    const { values, lemmas } = clause?.tokens ?? { values: [], lemmas: [] };
    const lemmaOf = (word: string) => lemmas[(values as string[]).indexOf(word)];
    expect([lemmaOf("appt"), lemmaOf("chiro"), lemmaOf("hrs"), lemmaOf("u")]).toEqual([
      "appointment",
      "chiropractor",
      "hour",
      "you",
    ]);
    // "apt" may be a flat: left as it is.
    expect(lemmaOf("apt")).toBe("apt");
    expect(clause?.text).toBe("my appt w the chiro ran 2 hrs late, u kidding?");
    // An editor's term "appointment" meets "appt".
    const matcher = compileTerms([["appointment"]], (t) => analyzer.termForms(t));
    expect(analyzer.clauses("my appt was moved").flatMap((c) => matcher.match(c))).toHaveLength(1);
  });

  it("cuts at a contrastive conjunction, which opens the second clause", () => {
    expect(clauseTexts("Dr. Patel was great but billing was a mess.")).toEqual([
      "Dr. Patel was great",
      "but billing was a mess.",
    ]);
    expect(clauseTexts("Parking is terrible; however, the staff was lovely.")).toEqual([
      "Parking is terrible;",
      "however, the staff was lovely.",
    ]);
  });

  it("cuts where the writer turns from another practice to this one", () => {
    expect(clauseTexts("My old clinic emailed receipts the same day, while here I had to ask three times.")).toEqual([
      "My old clinic emailed receipts the same day,",
      "while here I had to ask three times.",
    ]);
    expect(clauseTexts("My last chiropractor never listened; this one listened the first time.")).toEqual([
      "My last chiropractor never listened;",
      "this one listened the first time.",
    ]);
    // Without another practice named before it, "this place" is no turn; nor "here" as where something happened.
    expect(clauseTexts("If not for the wait, this place would be perfect.")).toEqual([
      "If not for the wait, this place would be perfect.",
    ]);
    expect(clauseTexts("I came here for my neck and this helped.")).toEqual([
      "I came here for my neck and this helped.",
    ]);
  });

  it("cuts a sentence that opens with although after its first comma", () => {
    expect(clauseTexts("Although the wait was long, parking was easy.")).toEqual([
      "Although the wait was long,",
      "parking was easy.",
    ]);
  });

  it("leaves a sentence-initial but alone and never makes a wordless clause", () => {
    expect(clauseTexts("But the billing was awful.")).toEqual(["But the billing was awful."]);
    const types = ["word", "word", "punctuation", "word", "punctuation"];
    expect(clauseRanges(["good", "care", ",", "but", "."], types)).toEqual([[0, 5]]);
  });

  it("cuts at yet after a comma and at even though, but not inside 'anything but' or 'not yet'", () => {
    expect(clauseTexts("The office is beautiful, yet parking is a struggle.")).toEqual([
      "The office is beautiful,",
      "yet parking is a struggle.",
    ]);
    expect(clauseTexts("Care was excellent even though insurance paid nothing.")).toEqual([
      "Care was excellent",
      "even though insurance paid nothing.",
    ]);
    expect(clauseTexts("Even though insurance paid nothing, the care was excellent.")).toEqual([
      "Even though insurance paid nothing,",
      "the care was excellent.",
    ]);
    expect(clauseTexts("The receptionist was anything but friendly.")).toHaveLength(1);
    expect(clauseTexts("I have not yet seen results.")).toHaveLength(1);
  });

  it("keeps the sentence of every clause for excerpts", () => {
    const [a, b] = analyzer.clauses("The staff were lovely but the bill was wrong.");
    expect(a?.text).toBe("The staff were lovely");
    expect(b?.text).toBe("but the bill was wrong.");
    expect(a?.sentence).toBe(b?.sentence);
    expect(a?.sentenceIndex).toBe(b?.sentenceIndex);
  });

  it("drops line breaks from sentences and numbers sentences from an offset", () => {
    const clauses = analyzer.clauses("First line here.\n\nSecond  line here.", 3);
    expect(clauses.map((c) => [c.sentenceIndex, c.sentence])).toEqual([
      [3, "First line here."],
      [4, "Second line here."],
    ]);
  });
});

describe("term matching", () => {
  const matcher = compileTerms([["bill", "billing"], ["wait"], ["waiting room"], ["front desk"]], (t) =>
    analyzer.termForms(t),
  );
  const groups = (text: string) => analyzer.clauses(text).flatMap((c) => matcher.match(c));

  it("matches inflections through lemmas", () => {
    expect(groups("I was billed twice.")).toEqual([0]);
    expect(groups("The bills were wrong.")).toEqual([0]);
    expect(groups("We waited forever.")).toEqual([1]);
  });

  it("prefers the longest term and consumes its tokens", () => {
    expect(groups("The waiting room was quiet.")).toEqual([2]);
    expect(groups("The waiting room was quiet and the wait was short.")).toEqual([1, 2]);
  });

  it("matches multi-word terms case-insensitively and only as whole tokens", () => {
    expect(groups("The FRONT DESK called me.")).toEqual([3]);
    expect(groups("The desk at the front was empty.")).toEqual([]);
    expect(groups("Billingsley was there.")).toEqual([]);
  });
});

describe("numbers and periods", () => {
  it("rounds half away from zero and never yields -0", () => {
    expect(round(0.0005)).toBe(0.001);
    expect(round(-0.0004)).toBe(0);
    expect(Object.is(round(-0.0004), -0)).toBe(false);
  });

  it("averages integer sums exactly: 169 stars over 40 reviews is 4.23", () => {
    expect(mean(169, 40, 2)).toBe(4.23);
    expect(mean(0, 0)).toBeNull();
  });

  it("ends the recent period on the newest date and handles 29 February", () => {
    expect(trendPeriods("2024-02-29")).toEqual({
      recent: { from: "2023-03-01", to: "2024-02-29" },
      previous: { from: "2022-03-01", to: "2023-02-28" },
    });
    const p = trendPeriods("2025-06-10");
    expect(["2025-06-10", "2024-06-11", "2024-06-10", "2023-06-11", "2023-06-10"].map((d) => periodOf(d, p))).toEqual([
      "recent",
      "recent",
      "previous",
      "previous",
      undefined,
    ]);
  });

  it("cuts long excerpts at a word boundary", () => {
    const long = `${"word ".repeat(100)}end`;
    const cut = excerpt(long);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut.endsWith("word…")).toBe(true);
    expect(excerpt("Short one.")).toBe("Short one.");
  });

  it("cuts around the clause quoted, keeping its first word and never half an emoji", () => {
    // A clause right after a long word ("…,but"): the cut starts at the clause, not a word later.
    const sentence = `${"z ".repeat(150)}${"x".repeat(280)},but the bill was wrong`;
    const start = sentence.indexOf(",but") + 1;
    const cut = excerpt(sentence, [start, sentence.length]);
    expect(cut).toBe("…but the bill was wrong");
    const shown = excerpt(`Great${"😀".repeat(200)}`, [0, 5]);
    expect(shown.endsWith("😀…")).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(300);
    expect(shown.isWellFormed()).toBe(true);
  });
});

describe("selectSection", () => {
  const insights = {
    aspects: [],
    entities: { technicians: [], services: [], service_areas: [] },
    topics: [],
    faq: [],
    summary: {
      editorial: "",
      highlights: { praised: [], criticised: [], rating_trend: null },
      coverage: { review_count: 0, sentences_analysed: 0, first_review_date: null, newest_review_date: null },
    },
  } satisfies Insights;

  it("returns everything without a section and one key with one", () => {
    expect(selectSection(insights)).toBe(insights);
    for (const section of INSIGHTS_SECTIONS) {
      const picked = selectSection(insights, section);
      expect(Object.keys(picked)).toEqual([section]);
      expect(InsightsSelectionSchema.parse(picked)).toEqual(picked);
    }
  });
});

describe("view helpers", () => {
  it("draws negative shares of the reviews left of the zero line and positive ones right", () => {
    const base = { label: "Billing", reviews: 4, share_of_reviews: 0.5, mean_sentiment: 0, trend: null };
    const chart = divergingChart([
      {
        ...base,
        id: "billing",
        mentions: 4,
        positive: 1,
        neutral: 1,
        negative: 2,
        examples: { positive: [], negative: [] },
      },
      {
        ...base,
        id: "none",
        label: "Quiet",
        reviews: 0,
        share_of_reviews: 0,
        mentions: 0,
        positive: 0,
        neutral: 0,
        negative: 0,
        examples: { positive: [], negative: [] },
      },
    ]);
    const [billing, quiet] = chart.rows;
    expect(billing).toMatchObject({ negativePercent: 50, positivePercent: 25 });
    expect((billing?.negX ?? 0) + (billing?.negWidth ?? 0)).toBeCloseTo(chart.center, 5);
    expect(billing?.negWidth).toBeCloseTo(chart.half / 2, 1);
    expect(quiet).toMatchObject({ negWidth: 0, posWidth: 0 });
    expect(chart.description).toBe("Billing: 25% positive, 50% negative of 4 reviews; Quiet: no reviews.");
  });

  it("signs scores and never prints -0.00", () => {
    expect([signed(0.123), signed(-0.5), signed(-0.001), signed(null)]).toEqual(["+0.12", "-0.50", "0.00", "n/a"]);
  });
});
