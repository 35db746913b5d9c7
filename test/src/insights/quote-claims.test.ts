import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { quoteOf } from "../../../src/insights/quotes.ts";
import { plainReview, projectInsights } from "../../helpers/project-insights.ts";

/**
 * A sentence quoted "in their words" must be the writer's own claim of what it is quoted for, with
 * the project's own content and models. Each text below was quoted on a side it does not say; the
 * review still counts, it is only not quoted.
 */
const { content, insights } = await projectInsights();
const annotator = createAnnotator(insights, content.business, createAnalyzer());

/** What the site would quote for each aspect of `text` at `rating` (quotes.ts `quoteOf`), as "aspect± clause". */
const quotes = (text: string, rating = 5) => {
  const a = annotator.annotate(plainReview(text, rating));
  return a.aspects.flatMap((x) => {
    const i = insights.aspects.findIndex((d) => d.id === x.id);
    const q = quoteOf(
      x.sentiment,
      a.mentions.filter((m) => m.aspect === i),
      rating,
    );
    return q ? [`${x.id}${q.score > 0 ? "+" : "-"} ${q.sentence.slice(...q.span)}`] : [];
  });
};

describe("quotes that are the writer's own claim", () => {
  it("does not quote 'finally' before a body giving way as praise: it tells how the story began", () => {
    for (const text of [
      // From a training set's whole review of 5 stars, where it was the review's quote for pain relief.
      "This spring my lower back finally quit and my son had to do the milking for three weeks.",
      "My back finally gave out last spring.",
      "My knee finally gave way on the stairs.",
      "My back finally went out completely in March.",
      // From the sample content (2023-05-08-janet-p), counted as its praise of pain relief.
      "Nine hours a day at a computer finally caught up with me: neck pain and tension headaches by mid afternoon, every afternoon.",
      "Years of desk work finally took its toll on my back.",
      // From the sample content (2026-08-08-leo-m): what gave way comes later in the clause.
      "My partner finally booked me after my lower back locked up for the third time this year.",
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
    expect(quotes("My neck finally turns again.")).toEqual(["pain-relief+ My neck finally turns again."]);
    expect(quotes("My frozen shoulder finally moves above my head.")).toEqual([
      "pain-relief+ My frozen shoulder finally moves above my head.",
    ]);
    expect(quotes("I finally found relief after years of back pain.")).toEqual([
      "pain-relief+ I finally found relief after years of back pain.",
    ]);
    // Pain gone "out the window" gave nothing way.
    expect(quotes("My headaches finally went out the window.")).toEqual([
      "pain-relief+ My headaches finally went out the window.",
    ]);
  });

  it("does not quote a hypothetical as praise: it tells what the writer lacks", () => {
    for (const text of [
      "Would love later hours.",
      "Would love it if they had later hours.",
      "It would be great if they had evening appointments.",
      "Would be amazing to have parking.",
      // From a validation set, labelled a complaint about the wait.
      "I live about twenty minutes away by car, which would be fine if I weren't kept waiting half an hour once I arrived.",
      "If I wanted to see Dr. Hughes specifically, I'd have to wait until mid-December.",
    ]) {
      expect(
        quotes(text, 4).filter((q) => q.includes("+ ")),
        text,
      ).toEqual([]);
    }
    expect(quotes("I would recommend Dr. Patel to anyone.", 4)).toEqual([
      "care+ I would recommend Dr. Patel to anyone.",
    ]);
    expect(quotes("Never thought I'd be pain-free again.")).toEqual([
      "pain-relief+ Never thought I'd be pain-free again.",
    ]);
    expect(quotes("If you call before nine they'll usually fit you in the same day.", 4)).toEqual([
      "scheduling+ If you call before nine they'll usually fit you in the same day.",
    ]);
    expect(quotes("Would love more evening hours, great staff though.", 4)).toContain(
      "staff+ Would love more evening hours, great staff though.",
    );
    // "Would like to thank", "would have to say": the writer's own thanks and verdict, wished for by no one.
    expect(quotes("I would like to thank Dr. Patel for the amazing care.")).toEqual([
      "care+ I would like to thank Dr. Patel for the amazing care.",
    ]);
    expect(quotes("I would have to say Dr. Patel is the best.")).toEqual([
      "care+ I would have to say Dr. Patel is the best.",
    ]);
  });

  it("does not quote praise someone else gave as the writer's", () => {
    for (const text of [
      "My friend told me Dr. Patel is amazing.",
      "My wife says the staff are wonderful.",
      "According to my neighbour, the front desk is lovely.",
      // From the held-out set: the neighbour's doubt was the review's quote for pain relief.
      "My neighbour swore the relief wouldn't last beyond a couple of days, but it's held for over a month.",
      // Hearsay the writer passes on.
      "Apparently Dr. Patel is great.",
      "Supposedly, the staff are friendly.",
      "I've heard Dr. Patel is great.",
      "They claim to be patient-focused.",
    ]) {
      expect(quotes(text, 4), text).toEqual([]);
    }
    // The writer's own words around what was said, and "told" that reports nothing, are still quoted.
    expect(quotes("I told my sister Dr. Patel is amazing.", 4)).toEqual([
      "care+ I told my sister Dr. Patel is amazing.",
    ]);
    expect(quotes("They told me up front what everything would cost and stuck to it.", 4)).toEqual([
      "billing+ They told me up front what everything would cost and stuck to it.",
    ]);
    expect(quotes("You can tell they clean between every patient, the whole place smells of disinfectant.", 4)).toEqual(
      ["facility+ You can tell they clean between every patient, the whole place smells of disinfectant."],
    );
  });

  it("does not quote a clause whose words a negator the reading missed may turn", () => {
    for (const [text, rating] of [
      ["Hardly what I'd call friendly staff.", 3],
      ["The office is far from clean.", 3],
      ["The front desk failed to be helpful.", 3],
      ["Dr. Patel is no longer as gentle as she used to be.", 3],
      ["The staff are rarely friendly.", 2],
      ["The staff were hardly rude, just busy.", 4],
      // From the sample content (2023-02-02-priya-s): the symptom "without" denies, "barely" restores.
      ["At 30 weeks I could barely get out of bed without my hips and lower back screaming at me.", 5],
    ] as const) {
      expect(quotes(text, rating), text).toEqual([]);
    }
    // A negator the reading read is no missed one.
    expect(quotes("I hardly notice my back pain anymore.")).toEqual([
      "pain-relief+ I hardly notice my back pain anymore.",
    ]);
    expect(quotes("My back no longer hurts.")).toEqual(["pain-relief+ My back no longer hurts."]);
  });

  it("does not quote a clause that runs over a sentence end the splitter missed", () => {
    for (const text of [
      "I came in. Dr. Patel was great.",
      "We arrived around 10am. Dr. Patel was so kind.",
      "Got there at 5 p.m. Dr. Patel was great.",
      // From the sample content (2023-04-17-beth-a), 'in.' taken for inches.
      "Insurance didn't cover the decompression table at all, which I knew going in. Three stars because the people are lovely.",
    ]) {
      expect(
        quotes(text, 4).filter((q) => q.includes("+ ")),
        text,
      ).toEqual([]);
    }
    // Titles, initials, times before lower case and an ellipsis end no sentence.
    expect(quotes("They open at 7 a.m. and the staff are lovely.", 4)).toContain(
      "staff+ They open at 7 a.m. and the staff are lovely.",
    );
    expect(quotes("Dr. Patel on Main St. is great.", 4)).toEqual(["care+ Dr. Patel on Main St. is great."]);
    expect(quotes("10/10 would get my neck yanked without warning again... NOT", 1)).toEqual([
      "care- 10/10 would get my neck yanked without warning again... NOT",
    ]);
  });

  it("does not quote an act that 'finally' came after a wait as praise: the wait is the point", () => {
    for (const text of [
      "They finally got me in after I called five times.",
      "The front desk finally called me back after a week.",
    ]) {
      expect(quotes(text, 4), text).toEqual([]);
    }
    // An outcome, and a search that ended well, are still praise.
    for (const text of [
      "Finally some relief after years of suffering.",
      "After years of pain I finally got relief.",
      "Finally found a chiropractor who listens.",
    ]) {
      expect(quotes(text), text).toHaveLength(1);
    }
  });

  it("does not quote praise of a past the review may say has gone", () => {
    for (const text of [
      "The staff were once lovely.",
      "Parking used to be easy before the construction.",
      "Dr. Patel was great in the beginning.",
    ]) {
      expect(quotes(text, 3), text).toEqual([]);
    }
    // A past that is the reading's own word, and "used to" about somewhere else, are still quoted.
    expect(quotes("I used to have constant back pain.")).toEqual(["pain-relief+ I used to have constant back pain."]);
    expect(quotes("Cheaper than the place I used to go.", 4)).toEqual([
      "billing+ Cheaper than the place I used to go.",
    ]);
    // "Once again" and "once more" say it happened again: praise of now, not of a past.
    expect(quotes("The staff were once again lovely.")).toEqual(["staff+ The staff were once again lovely."]);
    expect(quotes("The front desk was once more so helpful.")).toEqual([
      "staff+ The front desk was once more so helpful.",
    ]);
  });

  it("does not quote a verdict the writer calls mixed", () => {
    // The sample content's "Mixed results for my sciatica" (2023-04-17-beth-a, 3 stars): its title
    // was the review's quote for pain relief.
    const review = content.reviews.find((r) => r.id === "2023-04-17-beth-a");
    expect(review?.title).toBe("Mixed results for my sciatica");
    const a = annotator.annotate({ ...plainReview(review?.text ?? "", 3), title: review?.title ?? null });
    const i = insights.aspects.findIndex((d) => d.id === "pain-relief");
    const q = quoteOf(
      "positive",
      a.mentions.filter((m) => m.aspect === i),
      3,
    );
    expect(q?.sentence).not.toBe("Mixed results for my sciatica");
    expect(quotes("The results were mixed.", 3)).toEqual([]);
    expect(quotes("Great results for my sciatica")).toEqual(["pain-relief+ Great results for my sciatica"]);
  });

  it("does not quote a borrowed clause that points at something else with a demonstrative", () => {
    // From the sample content (2025-10-28-mei-l): "this" is the treatment, not the drive.
    expect(quotes("Lake Oswego is a bit of a drive in traffic, but this is the first thing that has worked.")).toEqual(
      [],
    );
    expect(quotes("The front desk was swamped, but clearly overwhelmed.", 2)).toEqual([
      "staff- but clearly overwhelmed.",
    ]);
  });

  it("does not quote 'kind of' naming a type as kindness", () => {
    // From the sample content (2025-09-10-michelle-g).
    const text =
      'My son is not a "do your exercises" kind of kid, but Tom somehow turned it into a competition and he actually did them.';
    expect(quotes(text)).toEqual([]);
    expect(quotes("Dr. Patel is so kind.")).toEqual(["care+ Dr. Patel is so kind."]);
    expect(quotes("The staff are kind of amazing.")).toEqual(["staff+ The staff are kind of amazing."]);
  });

  it("does not quote praise its clause takes back: 'if you enjoy…', a closing 'not'", () => {
    for (const text of [
      "Such a relaxing waiting room, if you enjoy jackhammers.",
      "Great front desk if you like being ignored.",
      "The front desk was super helpful... not.",
    ]) {
      expect(quotes(text, 3), text).toEqual([]);
    }
    // A complaint before a closing "NOT" was read right, and is still quoted.
    expect(quotes("10/10 would get my neck yanked without warning again... NOT", 1)).toEqual([
      "care- 10/10 would get my neck yanked without warning again... NOT",
    ]);
  });
});
