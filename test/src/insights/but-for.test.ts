import { describe, expect, it } from "vitest";
import { butFor } from "../../../src/insights/but-for.ts";
import { rulesReading } from "../../helpers/project-insights.ts";

/**
 * A condition "but for" something (but-for.ts): what it names is why the would-clause is not so. 3-star
 * reviews so the rating cannot decide; sentences written for this test.
 */
const read = await rulesReading();

describe("a would-clause of praise but for a fault", () => {
  it("reads what the condition names as the fault, and the would-clause as no praise", () => {
    expect(read("I'd go back if it wasn't for the price.")).toEqual(["billing:negative"]);
    expect(read("Would be five stars if not for the parking.")).toEqual(["location:negative"]);
    expect(read("If not for the wait, this place would be perfect.")).toEqual(["scheduling:negative"]);
  });
});

describe("a would-clause of harm but for a rescue", () => {
  it("reads what the condition names as the rescue", () => {
    expect(read("If it wasn't for Dr. Patel I'd still be on painkillers.")).toEqual(["care:positive"]);
  });
});

describe("the condition's bounds", () => {
  it("needs a would-clause, and names what stands after 'for' up to the would-clause's subject", () => {
    const tokens = "if it was not for the price i 'd go back".split(" ");
    expect(butFor(tokens, 0, tokens.length)).toEqual({ from: 5, to: 7, would: [7, 11], negators: [3] });
    const none = "if not for the price".split(" ");
    expect(butFor(none, 0, none.length)).toBeUndefined();
  });
});
