import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A time of day the patient owns names their appointment (src/insights/booked-time.ts). Sentences
 * written for this test.
 */
const read = await rulesReading();
const readAtOne = await rulesReading(1);

describe("a time of day the patient owns", () => {
  it("names the booking, in digits, with am or pm, or in words", () => {
    expect(read("I was early for my 8:45 on Tuesday.")).toEqual(["scheduling:neutral"]);
    expect(read("They moved my 11am twice this month.")).toContain("scheduling:neutral");
    expect(read("Somebody else was given my seven o'clock.")).toEqual(["scheduling:neutral"]);
    expect(read("We brought the kids along to our 4 pm.")).toEqual(["scheduling:neutral"]);
  });

  it("takes the rating's side where no word judges it, as 'my appointment' does", () => {
    expect(readAtOne("Turned up for my 10:30 and the door was locked.")).toEqual(["scheduling:negative"]);
  });

  it("is no booking before a noun, when no one owns it, or as when something happened", () => {
    expect(read("I have to be back for my 2:00 meeting.")).toEqual([]);
    expect(read("I still made it to my 5pm pick up.")).toEqual([]);
    expect(read("The 5pm traffic on the bridge is heavy.")).not.toContain("scheduling:neutral");
    expect(read("My neck locked up at 9am.")).not.toContain("scheduling:neutral");
    expect(read("A leaf blower roared outside during my 3pm.")).toEqual([]);
  });
});
