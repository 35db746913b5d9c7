import { describe, expect, it } from "vitest";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * Money spent beside a poor result (src/insights/money-spent.ts) went for nothing: a complaint about
 * what it cost as well as about the result. 3-star reviews so the rating cannot decide; sentences
 * written for this test.
 */
const read = await rulesReading();

describe("money spent beside a poor result", () => {
  it("is a billing complaint, whether an amount or a verb of spending tells it", () => {
    expect(read("Eight visits and about six hundred dollars later, my shoulder still clicks when I lift it.")).toEqual([
      "billing:negative",
      "pain-relief:negative",
    ]);
    expect(read("Wasted my savings on this place, my hip still hurts every morning.")).toEqual([
      "billing:negative",
      "pain-relief:negative",
    ]);
  });
  it("is nothing when the result was good", () => {
    expect(read("Three hundred dollars later, my headaches are gone.")).toEqual(["pain-relief:positive"]);
  });
  it("is nothing when what was spent is time", () => {
    expect(read("I spent half an hour on the table and my neck still feels stiff.")).not.toContain("billing:negative");
  });
});
