import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A short trip to the practice (src/insights/nearby.ts) praises where it is. 3-star reviews so the
 * rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("a short trip to the practice", () => {
  it("praises the location, in words or digits, by car or on foot", () => {
    expect(read("It's three minutes from my daughter's school.")).toEqual(["location:positive"]);
    expect(read("its a 4 min walk from the bus depot")).toEqual(["location:positive"]);
    expect(read("Handy for me, only eight minutes away.")).toEqual(["location:positive"]);
    expect(read("I was relieved it is only five minutes from my flat.")).toContain("location:positive");
    expect(read("It's not even five minutes from my flat.")).toEqual(["location:positive"]);
  });
  it("leaves a longer trip, a hedged one and a nearness lost to the words around them", () => {
    expect(read("The clinic is twenty minutes from my daughter's school.")).not.toContain("location:positive");
    expect(read("It is about ten minutes from the ferry terminal.")).not.toContain("location:positive");
    expect(read("It used to be five minutes from my flat before they moved.")).not.toContain("location:positive");
    expect(read("Since the move it is not five minutes from my flat anymore.")).not.toContain("location:positive");
  });
  it("is no trip when the minutes count something else", () => {
    expect(read("Nine minutes from lying down to being walked out, and that was the visit.")).not.toContain(
      "location:positive",
    );
    expect(read("I was five minutes away when the front desk rang to cancel.")).not.toContain("location:positive");
    expect(read("They turned me away ten minutes from closing.")).not.toContain("location:positive");
    expect(read("The adjustment was over two minutes from the time he walked in.")).not.toContain("location:positive");
  });
});
