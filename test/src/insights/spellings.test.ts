import { describe, expect, it } from "vitest";
import { respell, respeltLemma } from "../../../src/insights/spellings.ts";
import { rulesReading } from "../../helpers/project-insights.ts";

/** Misspellings common in real reviews, in 3-star reviews so the rating cannot decide; sentences written for this test. */
const read = await rulesReading();

describe("a misspelt word", () => {
  it("is read as the word meant, for praise, complaints and the aspects' own terms", () => {
    expect(read("The doctor seems knowledgable.")).toEqual(read("The doctor seems knowledgeable."));
    expect(read("The doctor seems knowledgable.")).toEqual(["care:positive"]);
    expect(read("Very dissapointed with the front desk.")).toEqual(["staff:negative"]);
    expect(read("The staff were unprofesional.")).toEqual(["staff:negative"]);
    expect(read("Could not get an apointment for three weeks.")).toEqual(
      read("Could not get an appointment for three weeks."),
    );
    expect(read("My migranes are gone.")).toEqual(["pain-relief:positive"]);
    expect(read("The doctor is great, parcking is terrible.")).toContain("location:negative");
  });

  it("keeps its lemma for the learned models, and leaves words spelt right alone", () => {
    expect(respell("reccomended")).toBe("recommended");
    expect(respeltLemma("reccomended")).toBe("recommend");
    expect(respell("recommended")).toBe("recommended");
    expect(respeltLemma("recommended")).toBeUndefined();
  });
});
