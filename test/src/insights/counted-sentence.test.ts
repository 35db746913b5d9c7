import { describe, expect, it } from "vitest";
import { polarity } from "../../../src/insights/numbers.ts";
import { countedMention } from "../../../src/insights/quotes.ts";
import type { AspectMention } from "../../../src/insights/readings.ts";
import { createSummariser } from "../../../src/insights/review-summary.ts";
import { saidHtml } from "../../../src/site/evidence-html.ts";
import { projectAnalysis } from "../../helpers/project-insights.ts";

/** The sentence an evidence page shows under a review is evidence of the reading it is listed under. */
const { insights, built: dataset, analyzer, analysis } = await projectAnalysis();
const summarise = createSummariser(insights, dataset.business, analyzer);

const mention = (score: number, sentence: string): AspectMention => ({
  aspect: 0,
  sentence,
  sentenceIndex: 0,
  score,
  span: [0, sentence.length],
  confident: true,
});

describe("the sentence an evidence page shows for a review's reading", () => {
  it("never shows praise under a complaint, nor a complaint under praise", () => {
    // "Decompression did nothing for me" (1 star): care is negative from the whole review, and its
    // one care clause, "Dr. Patel herself was nice…", is praise: it was highlighted under "care: negative".
    const paul = analysis.reviews.find((r) => r.id === "2026-04-03-paul-w");
    expect(paul?.aspects.find((a) => a.id === "care")?.sentiment).toBe("negative");
    expect(analysis.counted.get("2026-04-03-paul-w")?.get("care")?.sentence ?? "").not.toMatch(/herself was nice/);
    let checked = 0;
    for (const review of analysis.reviews) {
      for (const a of review.aspects) {
        const said = analysis.counted.get(review.id)?.get(a.id);
        if (!said || a.sentiment === "neutral") continue;
        checked++;
        const i = insights.aspects.findIndex((x) => x.id === a.id);
        const m = summarise(review).mentions.find(
          (x) => x.aspect === i && x.sentence === said.sentence && x.span.join() === said.span.join(),
        );
        const against = a.sentiment === "positive" ? "negative" : "positive";
        expect([review.id, a.id, a.sentiment, said.sentence.slice(...said.span)], "leans the other way").not.toEqual(
          polarity(m?.score ?? 0) === against ? [review.id, a.id, a.sentiment, said.sentence.slice(...said.span)] : [],
        );
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("falls back to a clause that does not lean the other way, or to none", () => {
    const praise = mention(0.7, "Dr. Patel herself was nice.");
    const plain = mention(0, "I saw Dr. Patel twice.");
    expect(countedMention("negative", [praise, plain])).toBe(plain);
    expect(countedMention("negative", [praise])).toBeUndefined();
    expect(countedMention("positive", [mention(-0.7, "Rushed."), plain])).toBe(plain);
    // Neutral readings still show their first clause; a leaning clause is shown under its own side.
    expect(countedMention("neutral", [praise, plain])).toBe(praise);
    expect(countedMention("positive", [plain, praise])).toBe(praise);
  });

  it("asks whether to keep a clause only of the clauses it would choose, and chooses as if it asked all", () => {
    const clauses = [0.5, 0.2, 0.7, -0.3, 0.7, 0].map((score, i) => mention(score, `Clause ${i}.`));
    const asked: number[] = [];
    const keep = (m: AspectMention) => {
      asked.push(m.score);
      return m.score !== 0.7 || m.sentence === "Clause 4.";
    };
    // An entity page's keep runs every matcher of its kind over the clause: the two clauses that
    // cannot beat the best so far, and those leaning the other way, are not asked about.
    expect(countedMention("positive", clauses, keep)).toBe(clauses[4]);
    expect(asked).toEqual([0.5, 0.7, 0.7]);
    asked.length = 0;
    expect(countedMention("negative", clauses, () => false)).toBeUndefined();
    const plainOnly = (m: AspectMention) => {
      asked.push(m.score);
      return m.score === 0;
    };
    expect(countedMention("negative", clauses, plainOnly)).toBe(clauses[5]);
    expect(asked).toEqual([-0.3, -0.3, 0]);
  });

  it("marks the sentence the reading rests on where the splitter missed a sentence end", () => {
    // "…which I knew going in. Three stars because…" (2023-04-17-beth-a): wink took "in." for inches,
    // so one clause held both sentences, and the billing page marked the praise of the people too.
    const said = analysis.counted.get("2023-04-17-beth-a")?.get("billing");
    if (!said) throw new Error("2023-04-17-beth-a has no sentence for billing");
    expect(said.sentence).toMatch(/going in\. Three stars because/);
    expect(said.sentence.slice(...said.span)).toBe(
      "Insurance didn't cover the decompression table at all, which I knew going in.",
    );
    expect(saidHtml(said)).toMatch(/<mark>Insurance didn&#39;t cover .* going in\.<\/mark> Three stars/);
  });
});
