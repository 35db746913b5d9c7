import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/log/commitment.ts";

describe("canonicalJson (RFC 8785)", () => {
  it("writes RFC 8785's example of primitives (section 3.2.2)", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("orders members by UTF-16 code units, array-index keys included (section 3.2.3)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse puts "1" first again (an array index); the text's order is what is checked.
    const order = [...canonicalJson(input).matchAll(/"([^"]*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
    expect(order).toEqual(["\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
    expect(keys).toHaveLength(7);
  });

  it("refuses what I-JSON refuses, as the library does", () => {
    expect(() => canonicalJson({ text: "\ud800" })).toThrow(/surrogate/i);
    expect(() => canonicalJson({ rating: Number.NaN })).toThrow(/NaN/);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(/Infinity/);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('writes an own "__proto__" member, as JSON.parse makes one, instead of dropping it', () => {
    const input = JSON.parse('{"verification":{"__proto__":{"method":"in-person"},"method":"invoice"}}');
    expect(canonicalJson(input)).toBe('{"verification":{"__proto__":{"method":"in-person"},"method":"invoice"}}');
    expect(canonicalJson(input)).toBe(canonicalize(input));
  });

  it("gives the library's bytes for any JSON value, and for toJSON, undefined and index keys", () => {
    const key = fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.constantFrom("0", "10", "01", "toJSON", "-1", "4294967295"),
    );
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(
        fc.string({ unit: "binary" }),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }),
      ),
      node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
      array: fc.array(tie("node"), { maxLength: 5 }),
      object: fc.dictionary(key, tie("node"), { maxKeys: 6 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        let expected: string | undefined;
        let failure: unknown;
        try {
          expected = canonicalize(v);
        } catch (err) {
          failure = err;
        }
        if (failure !== undefined || expected === undefined) expect(() => canonicalJson(v)).toThrow();
        else expect(canonicalJson(v)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
