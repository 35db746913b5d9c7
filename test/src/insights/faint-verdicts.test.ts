import { describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { explainReview } from "../../../src/insights/explain.ts";
import { priceToldBare } from "../../../src/insights/prices-told.ts";
import { plainReview, projectInsights, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * "The waiting room is fine.": a place, a person or a service said to be adequate, and no more, is
 * rated neither up nor down (issue 31), unless the sentence sets it against a complaint or gives a
 * reason; a result said to be fine is a good one. Sentences written for this test.
 */
const { insights, business, analyzer } = await rulesOnly();
const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
const project = await projectInsights();
const both = createAnnotator(project.insights, project.content.business, analyzer);

const read = (text: string, rating = 3, annotator = rules) =>
  annotator.annotate(plainReview(text, rating)).aspects.map((a) => `${a.id}:${a.sentiment}`);

describe("a bare verdict of adequate", () => {
  it("reads a place, the desk or the doctor said to be fine, ok or standard as neutral", () => {
    expect(read("The waiting room is fine.")).toEqual(["facility:neutral"]);
    expect(read("Reception was ok, I guess.")).toEqual(["staff:neutral"]);
    expect(read("The treatment rooms are pretty standard.")).toEqual(["facility:neutral"]);
  });

  it("reads a shrug, or a second verdict of the kind after the first, as adequate too", () => {
    expect(read("The chiropractor was whatever, fine I suppose.")).toEqual(["care:neutral"]);
    expect(read("The front desk is okay, fine, nothing special.")).toEqual(["staff:neutral"]);
    expect(read("The chiropractor was whatever, fine, but the wait was long.")).toContain("care:positive");
  });

  it("gives it no side from the rating or the models, in a glowing review or a bitter one", () => {
    const glowing = "Dr. Kim fixed my neck in two visits. The waiting room is fine.";
    expect(read(glowing, 5, both)).toContain("facility:neutral");
    const bitter = "Three months of visits and my hip is no better. The front desk is fine.";
    expect(read(bitter, 1, both)).toContain("staff:neutral");
  });

  it("keeps it praise against a complaint in its sentence, or with a reason after it", () => {
    expect(read("The doctor is fine but the office is filthy.")).toContain("care:positive");
    expect(read("The front desk is fine, always quick to call back.")).toEqual(["staff:positive"]);
  });

  it("leaves it no praise against a complaint about the same aspect: the complaint decides", () => {
    expect(read("The front desk is fine but could be friendlier.")).toEqual(["staff:negative"]);
    expect(read("The waiting room is fine but it is never clean.")).toEqual(["facility:negative"]);
  });

  it("reads a drawback put up with in a clause of its own ('but that's ok') as neither side", () => {
    expect(read("The lot is a block away, but that's okay.")).toEqual(["location:neutral"]);
    expect(read("Street parking only, though it was fine.")).toEqual(["location:neutral"]);
    expect(read("My appointment ran twenty minutes behind, though it was fine.")).not.toContain("scheduling:positive");
    expect(read("The front desk was rude, but whatever.")).toEqual(["staff:negative"]);
    expect(read("The rooms are tiny but fine, and the parking is awful.")).toContain("location:negative");
  });

  it("lets a complaint after the verdict in its own clause decide, as one in the next clause does", () => {
    expect(read("The chiropractor is okay, a little rushed though.")).toEqual(["care:negative"]);
    expect(read("The front desk is fine, kinda rude tho.")).toEqual(["staff:negative"]);
    expect(read("The front desk is fine, always friendly.")).toEqual(["staff:positive"]);
  });

  it("keeps a result said to be fine a good result, and a patient asked after no verdict on anyone", () => {
    expect(read("My lower back has been fine since the second visit.")).toEqual(["pain-relief:positive"]);
    expect(read("She stopped to ask if the pressure on my shoulder was okay.")).not.toContain("care:neutral");
  });

  it("gives a sentence that shrugs ('nothing fancy') no side from the rating or the models", () => {
    const ordinary = "Really friendly doctor. The office is an ordinary office, nothing to write home about.";
    expect(read(ordinary, 5, both)).toContain("facility:neutral");
    expect(read("Treatment did help my stiffness. Inside it's basic, nothing fancy.", 4, both)).toContain(
      "facility:neutral",
    );
    expect(read("Nothing fancy, just solid care from Dr. Kim.", 4, both)).toContain("care:positive");
    expect(read("Dr. Kim is nothing special.", 2, both)).toEqual(["care:neutral"]);
  });

  it("shrugs in its own clause only: the praise set against it stands", () => {
    expect(read("The office is nothing special, but Dr. Kim is a genius.", 5, both)).toContain("care:positive");
  });

  it("says why in --explain", () => {
    const lines = explainReview(rules, insights.aspects, plainReview("The waiting room is fine.", 3)).join("\n");
    expect(lines).toMatch(/facility +neutral +0\.00 +rated adequate, no more \(fine\+\): neutral/);
    const putUp = explainReview(rules, insights.aspects, plainReview("The lot is a block away, but that's okay.", 3));
    expect(putUp.join("\n")).toMatch(/location +neutral +0\.00 +a drawback the sentence puts up with: neutral/);
  });
});

describe("a price told bare", () => {
  const bare = (text: string) => priceToldBare(analyzer.clauses(text)[0] as Parameters<typeof priceToldBare>[0]);

  it("is a subject, a verb of price and an amount, with a rate at most", () => {
    expect(bare("My copay is $20 a visit.")).toBe(true);
    expect(bare("Each session runs $70.")).toBe(true);
    expect(bare("The hot stone massage is 30 dollars extra.")).toBe(true);
    expect(bare("The first visit came to $140.")).toBe(true);
    expect(bare("Each session was only $70.")).toBe(false);
    expect(bare("The office is 45 minutes from my house.")).toBe(false);
    expect(bare("At $90 a visit it adds up quickly.")).toBe(false);
    expect(bare("They have a lot that costs $10 a day.")).toBe(false);
    expect(bare("My bill came to $900!!!")).toBe(false);
    expect(bare("The cancellation fee is $75?")).toBe(false);
  });

  it("gives billing no side from the rating or the models, in a glowing review or a bitter one", () => {
    expect(read("Dr. Kim fixed my neck in two visits. My copay is $20 a visit.", 5, both)).toContain("billing:neutral");
    expect(read("Three months of visits and my hip is no better. Each session runs $70.", 1, both)).toContain(
      "billing:neutral",
    );
  });

  it("gives none either to a claim the patient sends in themselves, told as how they pay", () => {
    const bitter =
      "My hip is no better after a month. They don't take Medicare so I swipe my card and file the claim myself.";
    expect(read(bitter, 1, both)).toContain("billing:neutral");
    expect(read("They don't take Medicare, which is a joke, so I file the claims myself.", 1, both)).toContain(
      "billing:negative",
    );
  });

  it("leaves a price set against another clause of its sentence to its words and the models", () => {
    expect(read("The bill was $90 even though he spent five minutes with me.", 2, both)).toContain("billing:negative");
  });
});
