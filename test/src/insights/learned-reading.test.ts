import { beforeAll, describe, expect, it } from "vitest";
import { type Annotator, createAnnotator } from "../../../src/insights/annotate.ts";
import type { InsightsContent } from "../../../src/insights/content-schema.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { projectInsights } from "../../helpers/project-insights.ts";

/**
 * The rules and the learned models together (learned-reading.ts), with the project's own
 * content/insights/model.json, on sentences written for this test (not in any labelled set), each
 * in a 3-star review so the rating cannot decide.
 */
let both: Annotator;
let rules: Annotator;
let projectAspects: InsightsContent["aspects"];

beforeAll(async () => {
  const { content, insights } = await projectInsights();
  projectAspects = insights.aspects;
  expect(insights.model, "content/insights/model.json").toBeDefined();
  const analyzer = createAnalyzer();
  both = createAnnotator(insights, content.business, analyzer);
  rules = createAnnotator(insights, content.business, analyzer, { reading: "rules" });
});

const annotate = (a: Annotator, text: string, rating = 3) =>
  a.annotate({ id: "x", title: null, text, rating, technicians: [], services: [], service_areas: [] });
const read = (a: Annotator, text: string, rating = 3) =>
  annotate(a, text, rating).aspects.map((x) => `${x.id}:${x.sentiment}`);

describe("the learned models beside the rules", () => {
  it("read complaints and praise that carry no opinion word the rules know", () => {
    expect(read(both, "My statement showed a charge for a visit I never had.")).toEqual(["billing:negative"]);
    expect(read(rules, "My statement showed a charge for a visit I never had.")).toEqual(["billing:neutral"]);
    expect(read(both, "The soonest they could fit me in was the week after next.")).toEqual(["scheduling:negative"]);
    expect(read(both, "The paperwork for my claim was filed before I even asked.")).toContain("billing:positive");
  });

  it("read a fear that did not come true as praise, never as a complaint", () => {
    expect(read(both, "I was dreading a long wait in the lobby, but they took me straight through.")).toEqual([
      "scheduling:positive",
    ]);
    expect(read(both, "I half expected the neck adjustment to sting, yet I barely noticed it.")).toEqual([
      "care:positive",
      "pain-relief:positive",
    ]);
  });

  it("give no side to the symptom another provider was told of: it is why the patient came", () => {
    const text = "My physical therapist thought the ache under my shoulder blade might ease with adjustments.";
    expect(read(both, text)).toEqual(["pain-relief:neutral"]);
  });

  it("read no aspect into a fear the rules set aside: the contrast says what happened", () => {
    const aspects = read(both, "I was nervous the neck adjustment would feel rough, but it turned out painless.");
    expect(aspects).not.toContain("care:negative");
    expect(aspects).not.toContain("pain-relief:negative");
  });

  it("find the aspect a clause is about when the rules name another or none", () => {
    const staff = annotate(
      both,
      "I left a message about my invoice on Monday and again on Thursday and heard nothing back.",
    ).aspects.find((a) => a.id === "staff");
    expect(staff?.sentiment).toBe("negative");
    expect(staff?.source).toBe("machine");
  });

  it("leave a patient's own injury, told as why they came, neutral", () => {
    expect(read(both, "After the fall I could hardly climb the stairs to my flat.")).toEqual(["pain-relief:neutral"]);
  });

  it("never make a quote: a model's reading, or a rule's word the models doubt, is not shown in their words", () => {
    const a = annotate(both, "My statement showed a charge for a visit I never had.");
    expect(a.mentions.filter((m) => m.confident)).toEqual([]);
    // The rules' mixed words ("Fantastic", "charged") are weaker evidence the polarity model
    // overrules: the side it reads counts, but it is no quote.
    const b = annotate(both, "Fantastic, charged twice again for the same visit.");
    expect(b.aspects.map((x) => `${x.id}:${x.sentiment}`)).toEqual(["billing:negative"]);
    expect(b.mentions.filter((m) => m.confident)).toEqual([]);
    // An explicit reading both agree on is quoted as before.
    const c = annotate(both, "Dr. Patel was great but billing was a mess.");
    expect(c.aspects.map((x) => `${x.id}:${x.sentiment}`)).toEqual(["billing:negative", "care:positive"]);
    expect(c.mentions.filter((m) => m.confident).length).toBeGreaterThan(0);
  });

  it("read praise that a one-star review does not mean as no praise, and say why", () => {
    const side = (rating: number, text: string, id: string) =>
      annotate(both, text, rating).aspects.find((a) => a.id === id)?.sentiment;
    const sarcasm =
      "Fantastic, another surprise charge on my card. The adjustment lasted two minutes and my back hurts more than it did.";
    expect(side(1, sarcasm, "billing")).not.toBe("positive");
    expect(side(1, sarcasm, "pain-relief")).toBe("negative");
    // The same words in a glad review are meant; the rating alone does not turn them.
    expect(side(5, "Brilliant value at ninety dollars a visit. My shoulder feels better.", "billing")).toBe("positive");
    // Praise the writer turns from ("But…") is meant, however low the rating.
    const turned = "Dr. Kim was great. But the billing was a nightmare and I was charged twice.";
    expect(side(1, turned, "care")).toBe("positive");
    const said = explainReview(both, projectAspects, {
      id: "x",
      title: null,
      text: sarcasm,
      rating: 1,
      technicians: [],
      services: [],
      service_areas: [],
    });
    expect(said.join("\n")).toMatch(/in a review of one or two stars it read \w+ at p [\d.]+ with the rating/);
  });

  it("are the same function of the same content: two annotators read alike", async () => {
    const text = "Warm room, skilled hands, cold reception. The next opening was three weeks out.";
    expect(annotate(both, text).aspects).toEqual(annotate(both, text).aspects);
  });
});

describe("a condition named as what the visit was for", () => {
  const readAt = (rating: number, text: string) => read(both, text, rating);
  it("is why the patient came: the models may find pain relief there, but give it no side", () => {
    expect(readAt(1, "showed up for my sciatica appt and waited an hour. never again")).toContain(
      "pain-relief:neutral",
    );
    expect(readAt(3, "waited 70 min for my sciatica appt. SEVENTY.")).not.toContain("pain-relief:positive");
  });
  it("is the result's when something was done for it", () => {
    expect(readAt(3, "The adjustment did nothing for my sciatica.")).toEqual(["pain-relief:negative"]);
  });
  it("is the result's when the clause tells one after it", () => {
    expect(readAt(3, "went in for sciatica, the desk was friendly and it really helped")).toContain(
      "pain-relief:positive",
    );
  });
});
