import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkEditedCopy } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on a field name pasted far too long (a review's text where a name goes): the file
 * gets the check's own message about that field, on its line, like any unknown field.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

/** `npm run check` on the fixture with the neck-pain review's text changed by `edit`. */
const checkEdited = (edit: (text: string) => string) => checkEditedCopy(temp, FIXTURE, NECK, edit);

const LONG = "k".repeat(40_000);

describe("npm run check: a field name of tens of thousands of characters", () => {
  it.each([
    ["at the top", (t: string) => `${t}${LONG}: 1\n`, 12, LONG],
    ["quoted", (t: string) => `${t}"${LONG}": 1\n`, 12, LONG],
    [
      "under source",
      (t: string) => t.replace("  platform: direct\n", `  platform: direct\n  ${LONG}: 1\n`),
      9,
      `source.${LONG}`,
    ],
  ])("%s is named as an unknown field on its line, not as a fault of the check", async (_, edit, line, field) => {
    const { code, stderr } = await checkEdited(edit);
    expect(code).toBe(1);
    expect(stderr).not.toContain("unexpected error");
    expect(stderr).toContain(`content/${NECK}: line ${line}: ${field.slice(0, 50)}`);
  });

  it("in a file written as one flow mapping", async () => {
    const { code, stderr } = await checkEdited(
      () =>
        '{date: 2024-04-10, published_at: "2024-04-10T12:00:00Z", rating: 4, author: Gus L., text: Fine.,\n' +
        ` source: {platform: direct}, verification: {method: invoice, verified_on: 2024-04-10}, ${LONG}: 1}\n`,
    );
    expect(code).toBe(1);
    expect(stderr).not.toContain("unexpected error");
    expect(stderr).toContain(`content/${NECK}: line 2: ${LONG.slice(0, 50)}`);
  });

  it("an empty name in a flow mapping, after another field on its line, is found there too", async () => {
    const { code, stderr } = await checkEdited(
      () =>
        '{\n date: 2024-04-10, published_at: "2024-04-10T12:00:00Z", rating: 4, author: Gus L., "": 5,\n' +
        " text: Fine., source: {platform: direct}, verification: {method: invoice, verified_on: 2024-04-10}}\n",
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`content/${NECK}: line 2: "" is not a known field`);
  });
});

describe("npm run check: no message line repeats a long name or value whole", () => {
  const TEXT = "Great visit. ".repeat(300).trim();
  it.each([
    ["an unknown field", (t: string) => `${t}${"k".repeat(10_000)}: 1\n`, "line 12: kkkkkkkkkk"],
    [
      "a field written twice",
      (t: string) => `${t}${"k".repeat(10_000)}: 1\n${"k".repeat(10_000)}: 2\n`,
      "appears twice",
    ],
    [
      "an unknown nested field",
      (t: string) => t.replace("  platform: direct\n", `  platform: direct\n  ${"k".repeat(10_000)}: 1\n`),
      "line 9: source.kkkkk",
    ],
    [
      "no space after a colon",
      (t: string) => t.replace("author: Gus L.", `author:${"x".repeat(10_000)}`),
      "put a space after the colon: author: xxxx",
    ],
    [
      "a text with an unquoted colon",
      (t: string) => t.replace(/text: \|\n.*\n/, `text: ${TEXT}: really\n`),
      'the text contains ": "',
    ],
    [
      "a text with an unquoted #",
      (t: string) => t.replace(/text: \|\n.*\n/, `text: ${TEXT} #1 clinic\n`),
      'from " #" on is ignored',
    ],
  ])("%s: the message names it, shortened", async (_, edit, says) => {
    const { code, stderr } = await checkEdited(edit);
    expect(code).toBe(1);
    expect(stderr).toContain(says);
    for (const line of stderr.split("\n")) expect(line.length).toBeLessThan(400);
  });
});

describe("npm run check: an aspects label whose id is over the length limit", () => {
  it("is told the limit and the id's length, not that aspects is no mapping", async () => {
    const id = "a".repeat(101);
    const { code, stderr } = await checkEdited((t) => `${t}aspects: {care: positive, ${id}: negative}\n`);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 12: aspects.${"a".repeat(57)}...: expected an aspect id of at most 100 characters, got 101 characters`,
    );
    expect(stderr).not.toContain("expected a mapping");
  });
});

describe("npm run check: an unknown aspect id in an editor's aspects labels", () => {
  it("a long one is named shortened, as every other field name is", async () => {
    const id = "a".repeat(90);
    const { code, stderr } = await checkEdited((t) => `${t}aspects: {care: positive, ${id}: negative}\n`);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 12: aspects.${"a".repeat(57)}...: unknown aspect id; valid ids are`,
    );
    for (const line of stderr.split("\n")) expect(line.length).toBeLessThan(400);
  });

  it("an empty one is named by its quotes, not as nothing", async () => {
    const { code, stderr } = await checkEdited((t) => `${t}aspects: {care: positive, "": negative}\n`);
    expect(code).toBe(1);
    expect(stderr).toContain(`content/${NECK}: line 12: aspects."": unknown aspect id; valid ids are`);
    expect(stderr).not.toContain("aspects.:");
  });
});
