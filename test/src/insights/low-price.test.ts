import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A little amount (src/insights/low-price.ts) praises the price. 3-star reviews so the rating cannot
 * decide; sentences written for this test.
 */
const read = await rulesReading();

describe("a little amount", () => {
  it("praises the price, with a sign or a word of currency", () => {
    expect(read("Only $45 for the first visit.")).toEqual(["billing:positive"]);
    expect(read("my copay there is just 15 bucks")).toEqual(["billing:positive"]);
  });

  it("is no praise of what was given back, taken off or added", () => {
    expect(read("The insurance covered only $15 of it.")).not.toContain("billing:positive");
    expect(read("They knocked only $5 off the bill.")).not.toContain("billing:positive");
    expect(read("It came to only $10 more than my old place.")).not.toContain("billing:positive");
    // A price promised, which the bill may not keep.
    expect(read("They told me it would be only $40 a visit, then the bill came and it was $90.")).not.toContain(
      "billing:positive",
    );
    expect(read("They quoted just $50 but charged me $200.")).not.toContain("billing:positive");
  });

  it("leaves the clause's own opinion of the price as it is", () => {
    expect(read("Only $90 a visit, a total rip-off.")).toEqual(["billing:negative"]);
  });
});
