import { describe, expect, it } from "vitest";
import { evaluate, parseLabelled } from "../../../src/insights/evaluate.ts";
import { secondReader } from "../../../src/insights/second-reading.ts";

/**
 * A second reading is paired with its set item by item (src/insights/second-reading.ts): by the
 * place of each item, never by its text, and a second reading that does not match is refused
 * naming the second file's line.
 */
const IDS = ["staff", "billing", "care"];
const SET = "set.txt";
const SECOND = "second-reading/set.txt";

describe("a second reading", () => {
  it("reads each item with its own labels, even where two items share a rating and a text", () => {
    // The same short review twice, about two different visits: labelled apart in both readings.
    const set = parseLabelled("# A set.\n4 | staff:+ | Fine.\n4 | billing:- | Fine.\n2 | care:- | Rushed.\n", SET, IDS);
    const second = parseLabelled("4 | staff:+ | Fine.\n4 | billing:- | Fine.\n2 | care:- | Rushed.\n", SECOND, IDS);
    const report = evaluate(set, secondReader(set, second, SECOND), IDS, 0);
    expect(report.exact).toBe(3);
    expect(report.counts.fp).toBe(0);
  });

  it("refuses an item that is not the set's, naming the second file's line and the set's", () => {
    const set = parseLabelled("# A set.\n\n4 | staff:+ | Kind.\n2 | care:- | Rushed.\n", SET, IDS);
    const second = parseLabelled("4 | staff:+ | Kind.\n2 | care:- | Hurried.\n", SECOND, IDS);
    expect(() => secondReader(set, second, SECOND)).toThrow(
      "second-reading/set.txt:2: expected the set's item 2 (line 4) with its rating and text, got a different one",
    );
  });

  it("names the line of an item too many, and the set's item a short reading lacks", () => {
    const set = parseLabelled("# A set.\n4 | staff:+ | Kind.\n2 | care:- | Rushed.\n", SET, IDS);
    const longer = parseLabelled(
      "4 | staff:+ | Kind.\n2 | care:- | Rushed.\n# and one more\n3 | billing:0 | Paid.\n",
      SECOND,
      IDS,
    );
    expect(() => secondReader(set, longer, SECOND)).toThrow(
      "second-reading/set.txt:4: expected 2 items, one for each of the set's, got an item 3",
    );
    const shorter = parseLabelled("4 | staff:+ | Kind.\n", SECOND, IDS);
    expect(() => secondReader(set, shorter, SECOND)).toThrow(
      "second-reading/set.txt:1: expected 2 items, one for each of the set's, got 1: none for the set's item 2 (line 3) after this line",
    );
  });
});
