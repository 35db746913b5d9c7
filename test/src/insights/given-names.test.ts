import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A given name said without a title (src/insights/given-names.ts) is someone of the office: staff.
 * 3-star reviews so the rating cannot decide; sentences and names written for this test.
 */
const read = await rulesReading();

describe("a given name without a title", () => {
  it("is someone of the office, capitalised or not", () => {
    expect(read("Brenda at the front was lovely.")).toContain("staff:positive");
    expect(read("ask for tina, shes the sweetest")).toContain("staff:positive");
    expect(read("Huge thanks to Gloria, who was so patient with me.")).toContain("staff:positive");
    expect(read("derek was rude and rolled his eyes at me")).toContain("staff:negative");
    expect(read("THANK YOU TINA, you are amazing")).toContain("staff:positive");
    expect(read("Ms. Lorraine is always so kind.")).toContain("staff:positive");
  });
  it("says who was there, not how it went", () => {
    expect(read("Gloria checked me in.")).not.toContain("staff:positive");
    expect(read("Gloria checked me in.")).not.toContain("staff:negative");
  });
});

describe("a given name that is not someone of the office", () => {
  it("is the practitioner's after a title", () => {
    expect(read("Dr. Brenda was wonderful.")).not.toContain("staff:positive");
    expect(read("dr tina is wonderful")).not.toContain("staff:positive");
  });
  it("is the practitioner's set off after the word for one", () => {
    expect(read("My chiropractor, Derek, is the best in town.")).not.toContain("staff:positive");
  });
  it("is one of the review's technicians by a word of their name", () => {
    // Dr. Anika Patel is a technician of the project's content.
    expect(read("Anika is wonderful.")).not.toContain("staff:positive");
  });
  it("is the patient's own people", () => {
    expect(read("My daughter Emma loved it here.")).not.toContain("staff:positive");
    expect(read("My husband, Tom, was impressed.")).not.toContain("staff:positive");
    expect(read("I brought my kids Emma and Noah and they loved it.")).not.toContain("staff:positive");
  });
  it("is a place or a thing", () => {
    expect(read("Great office, an easy drive from San Jose.")).not.toContain("staff:positive");
    expect(read("Nice clinic right on Jackson Street.")).not.toContain("staff:positive");
    expect(read("Next to the Wendy's, which is handy.")).not.toContain("staff:positive");
    expect(read("It's beside Trader Joe's, easy to find.")).not.toContain("staff:positive");
  });
  it("is the patient's name", () => {
    expect(read("She kept calling me Karen, which was rude.")).not.toContain("staff:negative");
    expect(read("The adjustment helped a lot. Love, Karen")).not.toContain("staff:positive");
    expect(read("Best chiropractor in town! - Megan")).not.toContain("staff:neutral");
    expect(read("Thank you, Kayla!")).toContain("staff:positive");
  });
});
