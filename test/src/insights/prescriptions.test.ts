import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * What a practitioner prescribed (src/insights/prescriptions.ts): a plan recommended is no praise, and
 * one laid out before the practitioner looked is care that did not look first. 3-star reviews so the
 * rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("recommended, by the practitioner", () => {
  it("is a plan, neither praise nor complaint, when its object is one", () => {
    expect(read("She recommended two sessions a week for a month.")).toEqual(["care:neutral"]);
    expect(read("Dr. Amy strongly recommended two sessions a week.")).toEqual(["care:neutral"]);
    expect(read("They strongly recommend two sessions a week.")).not.toContain("care:positive");
    expect(read("The doctors here recommend weekly visits for the first month.")).not.toContain("care:positive");
    expect(read("Dr. Amy suggested ice and a new pillow.")).not.toContain("care:positive");
  });
  it("stays the patient's praise when the patient recommends", () => {
    expect(read("Would recommend Dr. Amy to anyone.")).toEqual(["care:positive"]);
    expect(read("Strongly recommend the 12-visit package.")).toEqual(["billing:positive"]);
    expect(read("Recommend the 12-visit package.")).toEqual(["billing:positive"]);
    expect(read("I would recommend Dr. Amy's treatment plan to anyone.")).toEqual(["care:positive"]);
  });
});

describe("a plan before the practitioner looked", () => {
  it("is a care complaint", () => {
    expect(read("The chiropractor laid out a 30-visit plan before he had examined me.")).toEqual(["care:negative"]);
    expect(read("He wanted me to sign up for a year of weekly visits before even looking at my x-rays.")).toContain(
      "care:negative",
    );
    expect(read("first appt and she had a package ready for me to sign before any exam")).toContain("care:negative");
  });
  it("is nothing when what came before was treatment or time, or the plan came after a look", () => {
    expect(read("He took x-rays before the first adjustment.")).toEqual(["care:neutral"]);
    expect(read("I did six weekly sessions before seeing any change.")).not.toContain("care:negative");
    expect(read("Before the exam she asked about my goals and we built the plan together.")).not.toContain(
      "care:negative",
    );
    expect(read("The front desk went over payment plans before the exam.")).not.toContain("care:negative");
  });
});

describe("grand", () => {
  it("after a number is a sum of money, no praise", () => {
    expect(read("They quoted me two grand for the package.")).toEqual(["billing:neutral"]);
  });
});

describe("a treatment done anyway", () => {
  it("is a care complaint after the patient objected", () => {
    expect(read("I told her my lower back was off-limits and she cracked it anyway.")).toContain("care:negative");
    expect(read("He laughed when I said I was nervous and did the neck thrust anyway.")).toContain("care:negative");
  });
  it("is nothing when no objection came before", () => {
    expect(read("The schedule was full but the front desk got me in anyway.")).not.toContain("care:negative");
    expect(read("The table was short but she adjusted me comfortably anyway.")).not.toContain("care:negative");
  });
  it("is nothing when the patient did it after their own doubt", () => {
    expect(read("I was not sure about it but did it anyway and loved it.")).not.toContain("care:negative");
    expect(read("I was nervous about the neck crack, but I went ahead anyway.")).not.toContain("care:negative");
  });
});
