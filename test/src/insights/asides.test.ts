import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * What a clause names aside from what it judges (attribute.ts): where something happened, and a
 * part of what is priced. 3-star reviews so the rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("a part of what is priced", () => {
  it("takes none of the opinion of the whole ('$39 including the exam, can't beat it')", () => {
    expect(read("New patient special was $39 including the exam, can't beat it.")).toEqual(["billing:positive"]);
    expect(read("The package was $400 inclusive of the x-rays, a rip-off.")).toContain("billing:negative");
    // Without "including", the exam is what the clause names.
    expect(read("The exam was quick, can't beat it.")).not.toContain("billing:positive");
    // Nor when the price is all the clause names beside it: the exam is not what can't be beaten.
    expect(read("$39 including the exam, can't beat it.")).toEqual(["care:neutral"]);
    // A part of what is praised, not priced, shares the praise.
    expect(read("Everything was great including the front desk staff.")).toEqual(["staff:positive"]);
  });
});

describe("where something happened", () => {
  it("is named in passing when the clause names what happened", () => {
    expect(read("My back went into spasm in the parking lot.")).toEqual(["pain-relief:neutral"]);
    expect(read("I filled in the forms at the front desk.")).toEqual(["staff:neutral"]);
  });

  it("is what the clause is about when it names nothing else, or judges it", () => {
    expect(read("We sat in the waiting room.")).toEqual(["facility:neutral"]);
    expect(read("My back went into spasm in the awful parking lot.")).toContain("location:negative");
  });
});

describe("when something happened", () => {
  it("names no scheduling by the booking it happened during or since", () => {
    expect(read("A month has gone by since my last appointment.")).toEqual([]);
    expect(read("The radio next door blared during my whole appointment.")).toEqual([]);
  });

  it("still names scheduling when the booking is what the clause tells of", () => {
    expect(read("After my appointment was cancelled a third time, I gave up.")).toContain("scheduling:negative");
  });
});

describe("another practice set against this one in one sentence", () => {
  it("reads the clause about this practice, not only the other's story", () => {
    expect(read("My last chiropractor never took it seriously; this one listened the first time.")).toEqual([
      "care:positive",
    ]);
    expect(read("My old clinic was spotless, while here the rooms are dirty.")).toEqual(["facility:negative"]);
  });
});
