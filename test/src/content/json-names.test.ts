import { describe, expect, it } from "vitest";
import { duplicateName } from "../../../src/content/json-names.ts";

describe("duplicateName: the first member name given twice in one object (I-JSON, RFC 7493 §2.3)", () => {
  it("names it by its JSON path, at any depth and inside arrays", () => {
    expect(duplicateName('{"a":1,"a":2}')).toBe("$.a");
    expect(duplicateName('{"params":{"arguments":{"rating":1,"limit":2,"rating":5}}}')).toBe(
      "$.params.arguments.rating",
    );
    expect(duplicateName('[{"x":1},{"y":[0,{"z":1,"z":1}]}]')).toBe("$[1].y[1].z");
  });

  it("compares names as decoded, and quotes one as JSON would", () => {
    expect(duplicateName('{"a":1,"\\u0061":2}')).toBe("$.a");
    expect(duplicateName('{"say \\"hi\\"":1,"say \\"hi\\"":2}')).toBe('$.say \\"hi\\"');
  });

  it("finds none where names repeat only across objects, or inside strings", () => {
    expect(duplicateName('[{"id":1},{"id":2}]')).toBeUndefined();
    expect(duplicateName('{"a":{"b":1},"c":{"b":2}}')).toBeUndefined();
    expect(duplicateName('{"q":"{\\"a\\":1,\\"a\\":2}","a":"}],[{"}')).toBeUndefined();
    expect(duplicateName('{"text":"a \\\\","b":1}')).toBeUndefined();
  });

  it("bounds the path it quotes, and says nothing of a text that is not JSON", () => {
    const long = "k".repeat(500);
    expect(duplicateName(`{"${long}":1,"${long}":2}`)).toBe(`$.${long.slice(0, 198)}…`);
    expect(duplicateName('{"a":1,"a')).toBeUndefined();
  });

  it("reads strings that hold quotes, colons, commas and brackets as strings, and escaped names as decoded", () => {
    expect(duplicateName('{"r":[{"x":{"b":1}},{"t":"\\"}{","t":0}]}')).toBe("$.r[1].t");
    expect(duplicateName('{"a\\u0062":1, "ab" : 2}')).toBe("$.ab");
    expect(duplicateName('{"a":"\\\\","b":"x,\\"a\\":[{",  "c":["a","a"]}')).toBeUndefined();
    expect(duplicateName('"a"')).toBeUndefined();
    expect(duplicateName('{"a":{},"b":[],"a":null}')).toBe("$.a");
  });
});
