import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Lateness told with a count ("15 minutes late") is a complaint however short, and lateness patients
 * are told of beforehand ("they text you when the doctor is running late") is a courtesy. Sentences
 * written for this test, in 3-star reviews so the rating cannot decide.
 */
const read = await rulesReading();

describe("lateness", () => {
  it("reads minutes late or behind as a delay, however few, and a short call-back as none", () => {
    expect(read("They run about 15 minutes late most days.")).toEqual(["scheduling:negative"]);
    expect(read("Appointments always start ten minutes behind.")).toEqual(["scheduling:negative"]);
    expect(read("I was called back after about ten minutes.")).not.toContain("scheduling:negative");
    expect(read("I was 5 minutes late and they were so understanding.")).not.toContain("scheduling:negative");
  });

  it("reads lateness as the schedule's, whoever the clause names", () => {
    expect(read("The doctor was running 10 minutes behind.")).toEqual(["scheduling:negative"]);
  });

  it("reads being told of a delay beforehand as no complaint, and a delay nobody told of as one", () => {
    expect(read("They text you when the doctor is running late.")).not.toContain("scheduling:negative");
    expect(read("they send a msg if things r running late so i wait in my car")).not.toContain("scheduling:negative");
    expect(read("They were running late and nobody told me.")).toEqual(["scheduling:negative"]);
    expect(read("They never call you when the wait is long.")).toEqual(["scheduling:negative"]);
    expect(read("Nobody calls you when the wait is long.")).toEqual(["scheduling:negative"]);
  });
});
