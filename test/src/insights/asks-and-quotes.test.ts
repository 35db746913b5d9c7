import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { plainReview, rulesOnly } from "../../helpers/project-insights.ts";

/** What a review asks, asks for, or quotes of someone else's words: none of it is the writer's opinion. */
const { insights, business, analyzer } = await rulesOnly();

describe("what a review asks or asks for", () => {
  const annotator = createAnnotator(insights, business, analyzer);
  const read = (text: string, rating = 3) => {
    const a = annotator.annotate(plainReview(text, rating));
    return { aspects: a.aspects.map((x) => `${x.id}:${x.sentiment}`), quotable: a.mentions.some((m) => m.confident) };
  };

  it("reads no absent symptom into a request not to do something", () => {
    // "not to adjust my neck" asks for something; it does not say the neck is no longer a problem.
    expect(read("I asked him not to adjust my neck.").aspects).not.toContain("care:positive");
    expect(read("I asked him not to adjust my neck.").aspects).not.toContain("pain-relief:positive");
    expect(read("My neck didn't hurt once after the second visit.").aspects).toEqual(["pain-relief:positive"]);
    // Only "not to" asks: "nothing to complain about" and "never to blame" still negate.
    expect(read("The staff gave me nothing to complain about.").aspects).toEqual(["staff:positive"]);
    expect(read("Billing had nothing to hide.").aspects).not.toContain("billing:negative");
    expect(read("The staff were never to blame.").aspects).toEqual(["staff:positive"]);
  });

  it('lets "no" before a noun negate that noun phrase, not the complaint told after it', () => {
    // Unpunctuated text: the scope of "no" ends with its noun, so "jerked" is still a complaint.
    expect(read("no warning he just jerked my neck hard").aspects).toEqual(["care:negative"]);
    expect(read("no x-ray no questions he just jerked my neck hard").aspects).toEqual(["care:negative"]);
    // What the noun governs stays inside ("no verdict on results yet"); "no one" reaches like "nobody".
    expect(read("no improvement in my back pain").aspects).toEqual(["pain-relief:negative"]);
    expect(read("no one at the desk was helpful").aspects).toEqual(["staff:negative"]);
    expect(read("no rude staff and no long waits").aspects).toEqual(["scheduling:positive", "staff:positive"]);
  });

  it('lets "no" reach the verb its noun phrase is the subject of, or the infinitive it governs', () => {
    expect(read("no adjustment helped my back").aspects).toEqual(["pain-relief:negative"]);
    expect(read("no staff member was friendly").aspects).toEqual(["staff:negative"]);
    expect(read("no appointment times were available for weeks").aspects).toEqual(["scheduling:negative"]);
    expect(read("I have no reason to complain about the staff").aspects).toEqual(["staff:positive"]);
  });

  it('takes no "no" for a negator where it is a word of a noun or an answer on its own', () => {
    // "the no show fee" is a fee; "no." is an answer (wink reads it as "No.", number, and goes on).
    expect(read("online booking is slick, the no show fee is steep tho").aspects).toEqual([
      "billing:negative",
      "scheduling:positive",
    ]);
    expect(read("no. just no. doc ignored me when i said stop", 1).aspects).toEqual(["care:negative"]);
  });

  it('reads "not perfect, but…" as a flaw granted to praise what follows, not as a complaint', () => {
    expect(read("My knee is not perfect but definitely better than it was.").aspects).not.toContain(
      "pain-relief:negative",
    );
    expect(read("My shoulder is not perfect.").aspects).toEqual(["pain-relief:negative"]);
    expect(read("My knee is not perfect, but definitely better than it was.").aspects).not.toContain(
      "pain-relief:negative",
    );
    // A contrast opening the next sentence concedes nothing of this one.
    expect(read("My back is not perfect. But the staff are lovely.").aspects).toEqual([
      "pain-relief:negative",
      "staff:positive",
    ]);
  });

  it("quotes no question: it asserts nothing a visitor could be shown as what patients say", () => {
    expect(read("Is the price fair?", 4)).toEqual({ aspects: ["billing:positive"], quotable: false });
    expect(read("The price is fair.", 4)).toEqual({ aspects: ["billing:positive"], quotable: true });
    // Marks after the question mark leave it a question.
    for (const text of ["(Is the price fair?)", 'Is the price fair?"']) {
      expect(read(text, 4), text).toEqual({ aspects: ["billing:positive"], quotable: false });
    }
    // "?!" exclaims: "who DOES that anymore?!" asserts what it asks.
    expect(read("The front desk called the next day to check on me, who DOES that anymore?!", 5).quotable).toBe(true);
    // Someone else's question, in quotation marks, leaves the writer's clause a statement.
    expect(read('The kind receptionist asked "have you paid?"', 5).quotable).toBe(true);
  });

  it("quotes no clause of a question cut at a contrast, back to where the question opens", () => {
    const quoted = (text: string, rating = 3) => {
      const a = annotator.annotate(plainReview(text, rating));
      return a.mentions.filter((m) => m.confident).map((m) => m.sentence.slice(...m.span));
    };
    // Each first clause was quoted as praise, its sentence shown whole on the home page.
    for (const text of [
      "Why are the front desk staff so friendly but the billing office such a mess?",
      "Was the price fair, though, given how little was done?",
      "Is the staff friendly although the wait is long?",
      "The front desk is lovely, although the wait is long?",
    ]) {
      expect(quoted(text), text).toEqual([]);
    }
    // A question that opens in a later clause leaves the statement before it a quote.
    expect(quoted("Dr. Patel is great, but is the billing office ever going to answer?")).toEqual([
      "Dr. Patel is great,",
    ]);
    expect(quoted("Could not be happier with the front desk, but why is parking so bad?", 4)).toEqual([
      "Could not be happier with the front desk,",
    ]);
  });

  it("quotes a sentence that reads an aspect both ways only for the side it turns to; every clause counts", () => {
    // A quote shows the whole sentence: this one, shown as praise, would misstate it.
    const sides = (text: string, rating = 3) =>
      annotator
        .annotate(plainReview(text, rating))
        .mentions.filter((m) => m.sentenceIndex === 0 && m.score !== 0)
        .map((m) => `${Math.sign(m.score)}${m.confident ? " quote" : ""}`)
        .sort();
    const turned = "Dr. Lindqvist is good with his hands, but he talks down to you and brushes off questions.";
    expect(sides(turned)).toEqual(["-1 quote", "1"]);
    expect(annotator.annotate(plainReview(turned, 4)).aspects.map((x) => x.id)).toEqual(["care"]);
    // "though" grants what follows it: the clause before is the point.
    expect(
      sides("The ache in my shoulder is mostly gone, though I never got a straight answer about what caused it."),
    ).toEqual(["-1", "1 quote"]);
    // Each side in a sentence of its own keeps its quote.
    const apart = annotator.annotate(plainReview("Dr. Lindqvist is good with his hands. But he talks down to you.", 3));
    expect(apart.mentions.filter((m) => m.confident).map((m) => m.sentenceIndex)).toEqual([0, 1]);
  });

  it("reads no worse result into a comparison: what something felt more like", () => {
    // "more" after a condition is a worse result ("more pain"); "more like" compares.
    const read3 = read("The posture scan felt more like a sales tool than a health assessment.").aspects;
    expect(read3).not.toContain("pain-relief:negative");
    expect(read("My back pain is more than it was.").aspects).toEqual(["pain-relief:negative"]);
  });

  it("reads what costs a fortune as dear, not as good fortune", () => {
    // wink's general lexicon values "fortune" as praise.
    expect(read("Six visits cost a fortune.").aspects).toEqual(["billing:negative"]);
    expect(read("The package cost me an arm and a leg.").aspects).toEqual(["billing:negative"]);
  });

  it("takes no opinion word in quotation marks for the writer's own", () => {
    // Someone else's words, or the writer's mockery of them.
    expect(read('The doctor keeps calling it "normal healing."', 2).aspects).not.toContain("care:positive");
    expect(read('The "free consultation" cost me $90.').aspects).not.toContain("billing:positive");
    expect(read("The doctor was great.").aspects).toEqual(["care:positive"]);
    // A whole text in quotation marks is the writer's own.
    expect(read('"The doctor was great."').aspects).toEqual(["care:positive"]);
    expect(read("“The doctor was great”!").aspects).toEqual(["care:positive"]);
    // A stray mark quotes nothing: the words after it stay the writer's.
    expect(
      read('The doctor was " great and thorough and kind and patient with me every single visit I made.').aspects,
    ).toEqual(["care:positive"]);
  });

  it("lets a negator in quotation marks turn nothing outside them", () => {
    // Someone else's "not", as their opinion words, is no word of the writer's.
    expect(read('Their "not rushed" visits felt great.').aspects).toEqual(read("Their visits felt great.").aspects);
  });

  it("pairs quotation marks within a sentence, and uses up a pair too far apart", () => {
    // The inch mark of a height would otherwise open a quotation closed by the next sentence's mark.
    expect(read('I am 5\'10" and the table was great. The "free" exam cost $90.').aspects).toEqual([
      "billing:neutral",
      "care:neutral",
      "facility:positive",
    ]);
    // The closing mark of a long quotation opens none: the writer's words before the next one stay theirs.
    const long =
      'The desk said it was "a routine adjustment that every single patient gets on their very first visit with the doctor" and the staff were so kind and the "free" exam cost $90.';
    expect(read(long).aspects).toContain("staff:positive");
    expect(read(long).aspects).not.toContain("billing:positive");
  });
});
