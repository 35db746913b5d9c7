import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Room to park for only a few cars (src/insights/few-spaces.ts) is a complaint about getting there.
 * 3-star reviews so the rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("room to park for a few cars", () => {
  it("complains of the location, with a verb of taking, 'room for' or 'only'", () => {
    expect(read("the little lot behind the pharmacy fits like five cars")).toEqual(["location:negative"]);
    expect(read("There is room for about 3 cars beside the entrance.")).toContain("location:negative");
    expect(read("They have only two spots reserved for patients.")).toContain("location:negative");
    expect(read("just 4 parking spaces round the side")).toEqual(["location:negative"]);
  });
  it("leaves a larger count, cars counted for another reason and room that is gone to the words", () => {
    expect(read("The garage holds 60 cars, so I never circle.")).not.toContain("location:negative");
    expect(read("There were only three cars ahead of me on the exit ramp.")).not.toContain("location:negative");
    expect(read("It used to fit only six cars, before they bought the lot next door.")).not.toContain(
      "location:negative",
    );
    expect(read("It's not just two spaces anymore since the bakery closed.")).not.toContain("location:negative");
  });
  it("is no parking when the places are times to book, the patient's own or inside", () => {
    expect(read("They had only two spots left for the whole week.")).not.toContain("location:negative");
    expect(read("Just one spot on my shoulder blade is still tender.")).not.toContain("location:negative");
    expect(read("There are only 2 spots for new patients each week.")).not.toContain("location:negative");
    expect(read("They have just 2 spots on Saturdays and they fill fast.")).not.toContain("location:negative");
    expect(read("There are only 3 spots in the waiting room, so people stand.")).not.toContain("location:negative");
    expect(read("Only two spaces between the tables, no privacy at all.")).not.toContain("location:negative");
    expect(read("Just 2 spots of redness from the cupping.")).not.toContain("location:negative");
  });
});
