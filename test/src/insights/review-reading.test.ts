import { describe, expect, it } from "vitest";
import { editorSet } from "../../../scripts/train-insights.ts";
import type { ReviewAspect } from "../../../src/content/records.ts";
import { type Annotator, createAnnotator, type ReviewAnnotation } from "../../../src/insights/annotate.ts";
import { evaluate, parseLabelled } from "../../../src/insights/evaluate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import type { LearnedModel } from "../../../src/insights/learned.ts";
import { LEARNED_DEFAULTS } from "../../../src/insights/learned-options.ts";
import { polarity } from "../../../src/insights/numbers.ts";
import { reviewContext } from "../../../src/insights/polarity-features.ts";
import type { AspectMention } from "../../../src/insights/readings.ts";
import { trainOn } from "../../../src/insights/training.ts";
import { plainReview, projectInsights, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * Reading the review, not only the sentence (issue 31): the rules' explicit words against the
 * learned model, the review around a clause, learning from whole reviews and editors' labels, and
 * the figures of whole reviews. Models here are made by hand, so each case fixes what the model says.
 */
const { insights, business, analyzer, ids } = await rulesOnly();

const review = plainReview;

/** A model with no features: every clause reads `side` at probability `p`, every aspect at 0.3 (no aspect found or
 * dropped by the aspect model, no quote doubted for it). */
function constantModel(side: 0 | 2, p: number): LearnedModel {
  const rest = (1 - p) / 2;
  const bias = [rest, rest, rest];
  bias[side] = p;
  return {
    version: 2,
    trained_on: [],
    polarity: { features: [], bias: bias.map(Math.log), weights: [] },
    aspects: { features: [], models: ids.map((id) => ({ id, bias: Math.log(0.3 / 0.7), weights: [] })) },
  };
}

const readWith = (model: LearnedModel, text: string, rating = 3) => {
  const annotator = createAnnotator({ ...insights, model }, business, analyzer);
  const annotation = annotator.annotate(review(text, rating));
  return {
    aspects: annotation.aspects.map((a) => `${a.id}:${a.sentiment}`),
    /** Whether any clause may be shown as a quote ("In their words"). */
    quotable: annotation.mentions.some((m) => m.confident),
    explained: explainReview(annotator, insights.aspects, review(text, rating)).join("\n"),
  };
};

describe("the rules' explicit words against the learned model", () => {
  it("keep an explicit word the model doubts without strong evidence, and --explain says the rules won", () => {
    const { aspects, explained, quotable } = readWith(constantModel(2, 0.45), "Dr. Kim was rushed.");
    expect(aspects).toEqual(["care:negative"]);
    // Rules and model disagree: the reading counts, but the clause is never quoted.
    expect(quotable).toBe(false);
    expect(readWith(constantModel(0, 0.45), "Dr. Kim was rushed.").quotable).toBe(true);
    expect(explained).toMatch(
      /the rules won: evidence rushed-; the learned model read positive at p 0\.45, under the 0\.5 needed/,
    );
  });

  it("let strong model evidence overrule an explicit word, and --explain says the model won and why", () => {
    const { aspects, explained, quotable } = readWith(constantModel(2, 0.9), "Dr. Kim was rushed.");
    expect(aspects).toEqual(["care:positive"]);
    expect(quotable).toBe(false);
    expect(explained).toMatch(
      /the learned model won: it read positive at p 0\.9 \(0\.9 from the clause's words alone\), at least the 0\.5 needed to overrule the rules' explicit words \(rushed-\)/,
    );
  });

  it("never let the rating alone overrule explicit words: the clause's words must point the same way", () => {
    // A model that reads every clause of a 1-star review as negative, whatever its words.
    const model: LearnedModel = {
      ...constantModel(2, 1 / 3),
      polarity: { features: ["rating:1"], bias: [0, 0, 0], weights: [5, 0, 0] },
    };
    const { aspects, explained } = readWith(model, "Dr. Kim was great.", 1);
    expect(aspects).toEqual(["care:positive"]);
    expect(explained).toMatch(
      /the rules won: evidence great\+; the learned model read negative at p 0\.987 with the rating and the rest of the review, but at p 0\.333 from the clause's words alone/,
    );
  });

  it("count a doubted clause less than an undoubted one in the review's score", () => {
    // The model doubts "worse" (positive at 0.45, under the 0.5 an explicit word needs) and agrees
    // with "gone": the outcome told last weighs more than the story before it.
    const text = "Two other clinics made my back worse. Three months in, my back pain is gone.";
    const score = (disputedWeight: number) =>
      createAnnotator({ ...insights, model: constantModel(2, 0.45) }, business, analyzer, {
        learned: { ...LEARNED_DEFAULTS, disputedWeight },
      })
        .annotate(review(text, 5))
        .aspects.find((x) => x.id === "pain-relief")?.score ?? 0;
    expect(score(LEARNED_DEFAULTS.disputedWeight)).toBeGreaterThan(score(1));
    expect(score(LEARNED_DEFAULTS.disputedWeight)).toBeGreaterThan(0.3);
  });
});

describe("five-star reviews with the project's model", () => {
  it("are no complaint when they say the wait was short, the trip was worth it, the insurer paid or a race went well", async () => {
    const { insights: withModel } = await projectInsights();
    const annotator = createAnnotator(withModel, business, analyzer);
    const read = (text: string) => annotator.annotate(review(text, 5)).aspects.map((a) => `${a.id}:${a.sentiment}`);
    expect(read("The wait was short and Dr. Kim was great.")).toEqual(["care:positive", "scheduling:positive"]);
    expect(read("It is a long trip for me but it was worth it.")).not.toContain("location:negative");
    expect(read("My insurer paid for every visit.")).toEqual(["billing:positive"]);
    expect(read("I finished my first half marathon six weeks later without any knee pain.")).toEqual([
      "pain-relief:positive",
    ]);
  });
});

describe("a result the review says is not known yet, with the project's model", () => {
  it("takes no side from the rating or the review model, and none the models alone gave", async () => {
    const { insights: withModel } = await projectInsights();
    const annotator = createAnnotator(withModel, business, analyzer);
    const read = (text: string) => annotator.annotate(review(text, 5)).aspects.map((a) => `${a.id}:${a.sentiment}`);
    const visits =
      "Dr. Soto was patient and walked me through my x-rays. I did a few visits for my hip and then moved away.";
    // Written for this test: without a word of the result, the five stars are read into it.
    expect(read(visits)).toContain("pain-relief:positive");
    expect(read(`${visits} Hard to judge results from that.`)).toContain("pain-relief:neutral");
  });
});

describe("the word back", () => {
  it("is the body part after my or before pain, and no pain-relief reading after a verb", async () => {
    const { insights: withModel } = await projectInsights();
    const annotator = createAnnotator(withModel, business, analyzer);
    const ids = (text: string, rating: number) => annotator.annotate(review(text, rating)).aspects.map((a) => a.id);
    expect(ids("I'd still go back for Dr. Bell.", 3)).not.toContain("pain-relief");
    expect(ids("Left without buying anything and drove back home a little annoyed.", 2)).not.toContain("pain-relief");
    expect(ids("My back felt better that evening.", 3)).toContain("pain-relief");
    expect(ids("Two visits helped back pain I had for years.", 3)).toContain("pain-relief");
  });
});

describe("the review around a clause", () => {
  it("tells the polarity model the rating, the other sentences' side, the opening sentence and the past tense", () => {
    const a = createAnnotator(insights, business, analyzer, { reading: "rules" }).annotate(
      review("I hurt my back lifting boxes. Dr. Kim was wonderful.", 5),
    );
    const context = reviewContext(a.clauses, a.readings, 5);
    expect(context[0]).toEqual(["rating:5", "rest:+|rating:5", "first"]);
    expect(context[1]).toEqual(["rating:5", "rest:0|rating:5", "past"]);
  });
});

describe("learning from whole reviews and editors' labels", () => {
  it("weights editors' labels, reports them apart, and trains the same bytes twice", () => {
    const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
    const editors = editorSet([
      {
        id: "b",
        rating: 5,
        title: "Back at work",
        text: "I could barely stand. Now I am pain free.",
        aspects: { "pain-relief": "positive" },
      },
      { id: "a", rating: 2, text: "Nobody called me back.", aspects: { staff: "negative" } },
      { id: "c", rating: 4, text: "Fine visit." },
    ]);
    expect(editors.items.map((i) => i.text)).toEqual([
      "Nobody called me back.",
      "I could barely stand. Now I am pain free.",
    ]);
    expect(editors.items[1]?.title).toBe("Back at work");
    const written = {
      name: "reviews.txt",
      items: parseLabelled(
        "5 | pain-relief:+ scheduling:+ | Hurt my back moving a couch. They saw me the same day. Now I can lift again.\n1 | care:- | He was rough. He never listened.",
        "reviews.txt",
        ids,
      ),
    };
    const options = { minCount: 1, l2: 0.0005, steps: 20, rate: 0.5 };
    const model = trainOn([written, editors], rules, ids, options);
    expect(model.trained_on.slice(0, 2)).toEqual(["reviews.txt", "editor labels in 2 reviews (weight 3)"]);
    expect(JSON.stringify(trainOn([written, editors], rules, ids, options))).toBe(JSON.stringify(model));
    // The rating is a feature the polarity model learned a weight for.
    expect(model.polarity.features).toContain("rating:5");
  });
});

describe("figures of whole reviews", () => {
  /** An annotation made by hand: the aspects read and the clauses behind them. */
  const annotation = (aspects: ReviewAspect[], mentions: AspectMention[]): ReviewAnnotation => ({
    aspects,
    scores: new Map(),
    mentions,
    entityAspects: new Map(),
    clauses: [],
    titleRead: false,
    unreadTitle: [],
    readings: [],
    sentences: 1,
    verdicts: new Map(),
    dropped: new Map(),
    vetoed: [],
  });

  it("count the reviews read exactly and the polar aspects the gold does not name", () => {
    const items = parseLabelled(
      "5 | care:+ | Dr. Kim was wonderful. The room was nice.\n1 | staff:- | Rude front desk.\n4 | billing:0 | I paid by card.",
      "set.txt",
      ids,
    );
    const fixed: Annotator = {
      annotate: (r) => {
        const read: Record<string, [string, number][]> = {
          "Dr. Kim was wonderful. The room was nice.": [
            ["care", 0.8],
            ["facility", 0.5],
          ],
          "Rude front desk.": [["staff", -0.7]],
          "I paid by card.": [["billing", 0]],
        };
        const found = read[r.text] ?? [];
        return annotation(
          found.map(([id, score]) => ({ id, score, sentiment: polarity(score), source: "machine" as const })),
          // Every polar clause is one the site may quote (`confident`), as the rules read it.
          found.map(([id, score]) => ({
            aspect: ids.indexOf(id),
            sentence: r.text,
            sentenceIndex: 0,
            score,
            span: [0, r.text.length],
            confident: score !== 0,
          })),
        );
      },
    };
    const report = evaluate(items, fixed, ids, 0);
    expect(report.exact).toBe(2);
    expect(report.spuriousPolar).toBe(1);
    // The site may quote the care, facility and staff clauses; the gold does not name facility.
    expect(report.quotes).toEqual({ shown: 3, right: 2 });
    expect(report.wrongQuotes).toEqual([]);
    expect(evaluate(items, fixed, ids, 5).wrongQuotes).toEqual([
      { line: 1, quote: "Dr. Kim was wonderful. The room was nice.", shown: "facility:pos", gold: "care:pos" },
    ]);
  });

  it("count no quote where the rating says the opposite of the clause", () => {
    const items = parseLabelled("1 | staff:- | Lovely staff, but nobody answers the phone.", "set.txt", ids);
    const fixed: Annotator = {
      annotate: (r) =>
        annotation(
          [{ id: "staff", score: -0.3, sentiment: "negative", source: "machine" }],
          // The praise may be quoted as praise only, which a one-star review never is.
          [
            {
              aspect: ids.indexOf("staff"),
              sentence: r.text,
              sentenceIndex: 0,
              score: 0.6,
              span: [0, 13],
              confident: true,
            },
          ],
        ),
    };
    expect(evaluate(items, fixed, ids, 5).quotes).toEqual({ shown: 0, right: 0 });
  });
});

describe("a clause that borrows the aspects of the clause before it", () => {
  const annotator = createAnnotator(insights, business, analyzer);
  const clauseOf = (text: string, rating: number) =>
    annotator.annotate(review(text, rating)).mentions.map((m) => ({
      aspect: ids[m.aspect],
      clause: m.sentence.slice(...m.span).trim(),
      side: Math.sign(m.score),
      quotable: m.confident,
    }));

  it("counts, but is no quote when a pronoun may point at someone the clause before did not name", () => {
    const read = clauseOf("Dr. Patel helped my back, but I'm tired of catching their mistakes.", 3);
    expect(read.find((m) => m.clause.startsWith("but I'm tired"))).toMatchObject({
      aspect: "care",
      side: -1,
      quotable: false,
    });
    // The clause that names the doctor keeps its quote.
    expect(read.find((m) => m.clause.startsWith("Dr. Patel"))).toMatchObject({
      aspect: "care",
      side: 1,
      quotable: true,
    });
    // An elided subject, or "it", is what the clause before named.
    const desk = clauseOf("The front desk was polite enough, but clearly overwhelmed.", 3);
    expect(desk.find((m) => m.clause.startsWith("but clearly"))).toMatchObject({ aspect: "staff", quotable: true });
    const somebody = clauseOf("Dr. Patel seemed fine, but somebody kept losing my paperwork.", 1);
    expect(somebody.find((m) => m.clause.startsWith("but somebody"))).toMatchObject({ quotable: false });
    const ripoff = clauseOf("I paid for the ten-visit package, but it was a total ripoff.", 1);
    expect(ripoff.find((m) => m.clause.startsWith("but it was"))).toMatchObject({
      aspect: "billing",
      side: -1,
      quotable: true,
    });
  });

  it("borrows none when it turns to the rest ('but everything else was great'), unless a pronoun stays on someone", () => {
    const rest = clauseOf("The parking lot is tiny, but everything else has been wonderful.", 3);
    expect(rest.filter((m) => m.clause.startsWith("but everything"))).toEqual([]);
    expect(rest.find((m) => m.aspect === "location")).toMatchObject({ side: -1 });
    const apart = clauseOf("The waiting room chairs are hard, but apart from that it was wonderful.", 3);
    expect(apart.filter((m) => m.clause.startsWith("but apart"))).toEqual([]);
    const she = clauseOf("The receptionist forgot my name, but otherwise she has been wonderful.", 3);
    expect(she.find((m) => m.clause.startsWith("but otherwise"))).toMatchObject({ side: 1 });
  });

  it("borrows none when it weighs the whole against the drawback ('but so worth it')", () => {
    const worth = clauseOf("The only catch is a forty minute bus ride each way, but totally worth it.", 3);
    expect(worth.filter((m) => m.clause.startsWith("but totally"))).toEqual([]);
    const parking = clauseOf("Parking is a nightmare, but it's worth it.", 3);
    expect(parking.find((m) => m.aspect === "location")).toMatchObject({ side: -1 });
    // Named, what is worth it is judged: "but Dr. Kim is worth it".
    expect(clauseOf("Parking is a nightmare, but the doctor is worth it.", 3)).toContainEqual(
      expect.objectContaining({ aspect: "care", side: 1 }),
    );
  });
});

describe("a clause whose only opinion is a word of wink's general lexicon that names a thing", () => {
  const annotator = createAnnotator(insights, business, analyzer);
  const read = (text: string, rating = 3) => {
    const a = annotator.annotate(review(text, rating));
    return { aspects: a.aspects.map((x) => `${x.id}:${x.sentiment}`), quotable: a.mentions.some((m) => m.confident) };
  };

  it("counts, but is no quote: a noun in a compound names, it does not judge", () => {
    // wink values "wellness" and "benefit" as praise.
    expect(read("A workplace wellness benefit paid for my visits.")).toEqual({
      aspects: ["billing:positive"],
      quotable: false,
    });
    expect(read("My insurance benefit covered it.")).toEqual({ aspects: ["billing:positive"], quotable: false });
    // Capitalised, as at the start of a sentence or in a title, wink tags the nouns PROPN.
    for (const text of ["Wellness benefit paid for my visits.", "Employee Wellness Benefit"]) {
      expect(read(text, 5), text).toEqual({ aspects: ["billing:positive"], quotable: false });
    }
    expect(read("Love Dr. Patel!", 5)).toEqual({ aspects: ["care:positive"], quotable: true });
    // A noun on its own may judge, as adjectives and the project's own words do.
    expect(read("The wellness plan was a bargain.")).toEqual({ aspects: ["billing:positive"], quotable: true });
    expect(read("Love the front desk staff.", 5)).toEqual({ aspects: ["staff:positive"], quotable: true });
    expect(read("The front desk made an error on my bill.", 2)).toEqual({
      aspects: ["staff:negative"],
      quotable: true,
    });
    expect(read("The parking is ridiculous.")).toEqual({ aspects: ["location:negative"], quotable: true });
  });
});
