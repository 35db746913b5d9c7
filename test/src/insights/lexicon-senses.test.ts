import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Words of the domain lexicons (content/insights/sentiment.yaml, aspects.yaml) in the senses a patient
 * also uses them in, where they are no complaint and name no aspect; 3-star reviews so the rating
 * cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("closed", () => {
  it("names the schedule when the practice closes, not when eyes close or a session ends", () => {
    expect(read("The office was closed for the holidays and no one told me.")).toEqual(["scheduling:negative"]);
    expect(read("I closed my eyes and relaxed.")).toEqual([]);
    expect(read("He closes every session with a stretch.")).toEqual(["care:neutral"]);
  });
});
