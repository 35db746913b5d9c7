import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A treatment said to work or help (src/insights/clause-mentions.ts) names the result, not the
 * practitioner's care. 3-star reviews so the rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("a treatment that works or helps", () => {
  it("names pain relief", () => {
    expect(read("The adjustments have really helped, though the waiting room is cramped.")).toEqual([
      "facility:negative",
      "pain-relief:positive",
    ]);
    expect(read("Honestly the adjustments work, but she never explains anything.")).toEqual([
      "care:negative",
      "pain-relief:positive",
    ]);
  });
  it("names pain relief when said of 'it', the treatment a review of a practice tells of", () => {
    expect(read("Sure, it sort of helped, but the front desk was rude.")).toEqual([
      "pain-relief:positive",
      "staff:negative",
    ]);
    expect(read("It has honestly worked.")).toEqual(["pain-relief:positive"]);
    // Not "it" as the workings, nor a result left open, nor "this" or "that".
    expect(read("The doctor showed me how it works.")).not.toContain("pain-relief:positive");
    expect(read("Too soon to know if it will help.")).not.toContain("pain-relief:positive");
    expect(read("Hope this helps other patients.")).toEqual([]);
    expect(read("Perhaps it helps, perhaps not, I stopped after two visits.")).not.toContain("pain-relief:positive");
    expect(read("I really needed it to work before my wedding.")).not.toContain("pain-relief:positive");
    // "It" put before what is really said: how things turned out, not the treatment.
    expect(read("It helps that they have evening hours.")).toEqual(["scheduling:positive"]);
    expect(read("It worked out with my insurance in the end.")).toEqual(["billing:positive"]);
  });
  it("names nothing when whether it helps is left open or it helped only at first", () => {
    expect(read("I can't say whether the treatment will help.")).not.toContain("pain-relief:positive");
    expect(read("The adjustments helped at first, but the ache came back.")).toEqual(["pain-relief:negative"]);
  });
  it("is no result when the work is what was done", () => {
    expect(read("He worked on my shoulder for ten minutes.")).toEqual(["care:neutral"]);
  });
});
