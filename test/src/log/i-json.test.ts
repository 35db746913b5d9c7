import { describe, expect, it } from "vitest";
import { duplicateMemberName } from "../../../src/log/i-json.ts";

describe("I-JSON member names (i-json.ts)", () => {
  it("finds a name an object holds twice, however either is escaped or nested", () => {
    expect(duplicateMemberName('{"a":1,"a":2}')).toBe("a");
    expect(duplicateMemberName('{"r":[{"x":{"b":1}},{"t":"\\"}{","t":0}]}')).toBe("t");
    expect(duplicateMemberName('{"a\\u0062":1, "ab" : 2}')).toBe("ab");
    expect(duplicateMemberName('[{"a":{"a":1},"b":{"a":2}}]')).toBeUndefined();
  });

  it("reads strings that hold quotes, colons, commas and brackets as strings", () => {
    expect(duplicateMemberName('{"a":"\\\\","b":"x,\\"a\\":[{",  "c":["a","a"]}')).toBeUndefined();
    expect(duplicateMemberName('"a"')).toBeUndefined();
    expect(duplicateMemberName('{"a":{},"b":[],"a":null}')).toBe("a");
  });
});
