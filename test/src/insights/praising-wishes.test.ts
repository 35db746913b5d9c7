import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A wish can praise: "I only wish I had found Dr. Kim sooner" regrets the writer's own delay, and
 * "wish there were more doctors like her" wants more of what the practice is. Neither is a complaint
 * about the aspect it names, while a wish for what is ("wish they had more evening hours", "wish I
 * didn't have to wait so long") still is. Sentences written for this test.
 */
const sides = await rulesReading(5);

describe("a wish that praises", () => {
  it("reads the writer's regret at coming late as no complaint about what they came to", () => {
    expect(sides("I only wish I had found Dr. Kim sooner.")).toEqual(["care:positive"]);
    expect(sides("I wish I had found Dr. Kim sooner.")).toEqual(["care:positive"]);
    expect(sides("I wish I'd found this clinic years ago.")).not.toContain("facility:negative");
    expect(sides("I wish I hadn't waited so long to see Dr. Kim.")).not.toContain("scheduling:negative");
    expect(sides("Dr Kim fixed my back, I just wish I hadn't put it off for years.")).not.toContain("care:negative");
  });

  it("reads a wish for more like the practice as no complaint about it", () => {
    expect(sides("Wish there were more doctors like her.")).not.toContain("care:negative");
    expect(sides("I wish there were more chiropractors like Dr. Kim.")).toEqual(["care:positive"]);
    expect(sides("I wish every doctor was like Dr. Kim.")).toEqual(["care:positive"]);
  });

  it("reads a question why not all are like the practice as no complaint about it", () => {
    expect(sides("Why can't all doctors be like Dr. Kim?")).not.toContain("care:negative");
    expect(sides("Why don't more doctors listen like Dr. Kim?")).not.toContain("care:negative");
    expect(sides("I wish every doctor was this thorough.")).toEqual(["care:positive"]);
    expect(sides("Why can't the front desk call back for once?")).toContain("staff:negative");
  });

  it("reads good wishes to the practice as no complaint about it", () => {
    expect(sides("I wish Dr. Kim and her staff nothing but the best.")).not.toContain("care:negative");
    expect(sides("I wish Dr. Kim luck with the new clinic.")).toEqual(["care:positive"]);
  });

  it("keeps a wish for what is a complaint", () => {
    expect(sides("Dr Kim is great I do wish they had more evening hours.")).toContain("scheduling:negative");
    expect(sides("I wish I didn't have to wait three weeks between visits.")).toContain("scheduling:negative");
    expect(sides("I wish I had known sooner that they don't take my insurance.")).toContain("billing:negative");
    expect(sides("Wish there was more parking.")).toContain("location:negative");
  });
});
