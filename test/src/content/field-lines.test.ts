import { describe, expect, it } from "vitest";
import { fieldAtLine, fieldLine } from "../../../src/content/field-lines.ts";

/** Which field a line of a content file belongs to, and back: the line of a field. */

const FILE = `date: 2026-03-14
# a note
text: |
  First line.

  After a blank line.
services:
- massage
- x-ray
technicians:
  - id: anika-patel
    note: first
  - id: tom-lindqvist
title: a long title
  going on here
response:
  date: 2026-03-15
  text: >
    Thanks.
rating: 5
`;

describe("fieldAtLine", () => {
  it("names the key of a line, the block a line of text is in, and list items by their index", () => {
    const at = (line: number) => fieldAtLine(FILE, line);
    expect(at(1)).toEqual(["date"]);
    expect(at(2)).toEqual([]);
    expect(at(4)).toEqual(["text"]);
    expect(at(6)).toEqual(["text"]);
    expect(at(9)).toEqual(["services", 1]);
    expect(at(12)).toEqual(["technicians", 0, "note"]);
    expect(at(13)).toEqual(["technicians", 1, "id"]);
    expect(at(15)).toEqual(["title"]);
    expect(at(19)).toEqual(["response", "text"]);
    expect(at(20)).toEqual(["rating"]);
  });

  it("is the inverse of fieldLine on the lines of fields", () => {
    for (const path of [["date"], ["technicians", 1, "id"], ["response", "text"], ["rating"]]) {
      expect(fieldAtLine(FILE, fieldLine(FILE, path) as number)).toEqual(path);
    }
  });
});

describe("fieldLine", () => {
  it("finds a field written after the closing quote of a value begun on the line above", () => {
    // Found by the broken-files property (plain-messages.test.ts): js-yaml reads `ublished_at` as a field.
    const text = `ate: 'unclosed\np'ublished_at: "2025-01-16T17:20:00Z"\nrating: 3\nsource:\n  a: "x\n  y" b: 1\n`;
    expect(fieldLine(text, ["ublished_at"])).toBe(2);
    expect(fieldLine(text, ["source", "b"])).toBe(6);
    expect(fieldLine(text, ["rating"])).toBe(3);
  });
});
