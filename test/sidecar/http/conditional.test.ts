import { describe, expect, it } from "vitest";
import {
  conditionalFields,
  evaluateConditions,
  parseEtagList,
  servedLastModified,
} from "../../../sidecar/http/conditional.ts";

/** The server's clock in these cases: 2026-12-05T10:00:00.500Z. */
const NOW = Date.UTC(2026, 11, 5, 10, 0, 0, 500);
const LM = Date.UTC(2026, 11, 1, 8, 0, 0);
const v = { etag: '"abc"', lastModifiedMs: LM, lastModified: new Date(LM).toUTCString() };
const get = (h: Parameters<typeof evaluateConditions>[1]) => evaluateConditions("GET", h, v, NOW);

describe("entity-tag lists (RFC 9110 §8.8.3, §13.1.1, §13.1.2)", () => {
  it("reads *, tags, weak tags and commas inside quotes", () => {
    expect(parseEtagList(" * ")).toEqual(["*"]);
    expect(parseEtagList('"a", W/"b" ,"c,d"')).toEqual(['"a"', 'W/"b"', '"c,d"']);
    expect(parseEtagList(', "a",,')).toEqual(['"a"']);
  });
  it("drops members that are no entity-tag, a * inside a list among them", () => {
    expect(parseEtagList("1*2")).toEqual([]);
    expect(parseEtagList("W/*")).toEqual([]);
    expect(parseEtagList('"stale"*')).toEqual([]);
    expect(parseEtagList('"a", *')).toEqual(['"a"']);
    expect(parseEtagList('abc, "a b"')).toEqual([]);
  });
  it("answers a field with no valid member as matching nothing", () => {
    expect(get({ "if-none-match": "1*2" })).toBe("send");
    expect(get({ "if-none-match": "W/*" })).toBe("send");
    expect(get({ "if-none-match": "*" })).toBe("not-modified");
    expect(get({ "if-none-match": 'W/"abc"' })).toBe("not-modified");
    expect(get({ "if-match": '"abc"*' })).toBe("precondition-failed");
    expect(get({ "if-match": '"abc"' })).toBe("send");
    expect(get({ "if-match": 'W/"abc"' })).toBe("precondition-failed");
  });
  it("does not fall back to If-Modified-Since when If-None-Match is sent but invalid", () => {
    expect(get({ "if-none-match": "garbage", "if-modified-since": v.lastModified })).toBe("send");
  });
});

describe("dates (RFC 9110 §13.1.3, §13.1.4)", () => {
  it("answers If-Modified-Since at or after Last-Modified with 304, up to the server's clock", () => {
    expect(get({ "if-modified-since": v.lastModified })).toBe("not-modified");
    expect(get({ "if-modified-since": new Date(NOW).toUTCString() })).toBe("not-modified");
  });
  it("ignores an If-Modified-Since later than the server's clock", () => {
    expect(get({ "if-modified-since": new Date(NOW + 1000).toUTCString() })).toBe("send");
    expect(get({ "if-modified-since": new Date(NOW + 86_400_000).toUTCString() })).toBe("send");
  });
  it("ignores a list of dates, which two lines of the field become", () => {
    const fields = conditionalFields({
      "if-modified-since": [v.lastModified, "Sat, 01 Jan 2000 00:00:00 GMT"],
      "if-unmodified-since": ["Sat, 01 Jan 2000 00:00:00 GMT", v.lastModified],
    });
    expect(fields["if-modified-since"]).toBe(`${v.lastModified}, Sat, 01 Jan 2000 00:00:00 GMT`);
    expect(get(fields)).toBe("send");
    expect(get(conditionalFields({ "if-modified-since": [v.lastModified] }))).toBe("not-modified");
    expect(get(conditionalFields({ "if-unmodified-since": ["Sat, 01 Jan 2000 00:00:00 GMT"] }))).toBe(
      "precondition-failed",
    );
  });
});

describe("a Last-Modified later than the message's Date (RFC 9110 §8.8.2.1)", () => {
  it("is replaced by the Date, to the second", () => {
    const ahead = { lastModifiedMs: NOW + 7_200_000, lastModified: new Date(NOW + 7_200_000).toUTCString() };
    expect(servedLastModified(ahead, NOW)).toEqual({
      lastModifiedMs: Date.UTC(2026, 11, 5, 10, 0, 0),
      lastModified: "Sat, 05 Dec 2026 10:00:00 GMT",
    });
  });
  it("is kept when it is not later than the Date", () => {
    expect(servedLastModified(v, NOW)).toBe(v);
    const sameSecond = { lastModifiedMs: NOW + 400, lastModified: new Date(NOW + 400).toUTCString() };
    expect(servedLastModified(sameSecond, NOW)).toBe(sameSecond);
    expect(servedLastModified({}, NOW)).toEqual({});
  });
  it("is read as sent by If-Unmodified-Since, as the file's own by If-Modified-Since", () => {
    const next = Date.UTC(2026, 11, 5, 10, 0, 1);
    const ahead = { etag: '"abc"', lastModifiedMs: next, lastModified: new Date(next).toUTCString() };
    const sent = new Date(Date.UTC(2026, 11, 5, 10, 0, 0)).toUTCString();
    expect(evaluateConditions("GET", { "if-unmodified-since": sent }, ahead, NOW)).toBe("send");
    expect(evaluateConditions("GET", { "if-modified-since": sent }, ahead, NOW)).toBe("send");
  });
});
