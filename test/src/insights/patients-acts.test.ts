import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * What the patient did is no complaint about the practice: a visit they cancelled themselves, and
 * the notice they gave ("two days ahead"). Sentences written for this test, in 3-star reviews so the
 * rating cannot decide.
 */
const read = await rulesReading();

describe("the patient's own acts", () => {
  it("reads a cancellation the patient made as no scheduling complaint", () => {
    expect(read("They charged me $60 for a session I had cancelled by phone.")).toEqual(["billing:negative"]);
    expect(read("I'd cancelled a day ahead and still got the no-show charge.")).not.toContain("scheduling:negative");
    expect(read("Rang four times to cancel and was charged for the visit anyway.")).not.toContain(
      "scheduling:negative",
    );
  });

  it("still reads a cancellation the practice made as one", () => {
    expect(read("They cancelled my appointment twice in one week.")).toEqual(["scheduling:negative"]);
    expect(read("They had to cancel on me the morning of.")).toContain("scheduling:negative");
    expect(read("Cancelled my appointment again, with an hour's notice.")).toContain("scheduling:negative");
    expect(read("I was cancelled on twice this month.")).toContain("scheduling:negative");
    expect(read("I can only cancel by calling during office hours, which is a pain.")).toContain("scheduling:negative");
  });

  it("reads notice the patient gave as no delay, and a wait ahead as one", () => {
    expect(read("We book our visits a month ahead.")).not.toContain("scheduling:negative");
    expect(read("The first open slot was three weeks ahead.")).toEqual(["scheduling:negative"]);
  });

  it("reads a booking told with why the patient came as the story, and a booking told for itself as scheduling", () => {
    expect(read("My sciatica flared at work, which is why I booked.")).not.toContain("scheduling:negative");
    expect(read("I booked because my neck pain kept me up at night.")).toEqual(["pain-relief:neutral"]);
    expect(read("I booked online in under a minute.")).toEqual(["scheduling:positive"]);
  });

  it("reads walking out as leaving, no result, unless how the patient left follows", () => {
    const result = (text: string) => read(text).filter((a) => a.startsWith("pain-relief"));
    expect(result("Nobody at the desk could find my booking, so I gave up and walked out.")).toEqual([]);
    expect(result("The room smelled of mould and I walked out of there before anyone saw me.")).toEqual([]);
    expect(result("Forty minutes past my slot I walked out without being seen.")).toEqual([]);
    expect(read("I hobbled in bent over and walked out pain free.")).toEqual(["pain-relief:positive"]);
    expect(result("I walked out without my usual limp.")).toHaveLength(1);
    expect(result("I walked out on cloud nine after one visit.")).toHaveLength(1);
    expect(result("I walked out at least an inch taller.")).toHaveLength(1);
  });
});
