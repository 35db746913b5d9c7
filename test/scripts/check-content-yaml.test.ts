import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkIn, checkoutOf, edit } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on review files YAML reads otherwise than an editor expects (a second document,
 * a flow mapping, a tag, a value cut short by ' #', a name YAML takes for null): each is read as
 * YAML reads it and named at its line, in words an editor can act on.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";

const temp = tempFolders();
const copy = () => checkoutOf(temp, FIXTURE);
const check = checkIn;

describe("npm run check", () => {
  it("a second YAML document in a review file is named at the line that starts it", async () => {
    const root = await copy();
    // Two reviews pasted into one file, and a stray "---" left at the end of another.
    await edit(path.join(root, "content", NECK), (t) => `---\n${t}---\ndate: 2024-04-11\nrating: 3\n`);
    await edit(path.join(root, "content/reviews/2025/2025-03-15-waiting-room.yaml"), (t) => `${t}---\n`);
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    const advice =
      'a line "---" or "..." ends the file\'s YAML document and starts another — a content file holds one document: delete this line, and put what follows it in a file of its own if it is another review';
    expect(stderr).toContain(`content/${NECK}: line 13: ${advice}`);
    expect(stderr).toContain(`content/reviews/2025/2025-03-15-waiting-room.yaml: line 12: ${advice}`);
    expect(stderr).not.toContain("appears twice");
  });

  it("a field name in quotes or spaced from its colon is read as YAML reads it, and named on its line", async () => {
    const root = await copy();
    // As a JSON-to-YAML converter writes a file: valid YAML, the same review.
    await edit(path.join(root, "content", NECK), (t) =>
      t.replace("rating: 4", '"rating": 4').replace("author: Gus L.", "'author' : Gus L."),
    );
    expect(await check(root)).toMatchObject({ code: 0 });
    await edit(path.join(root, "content", NECK), (t) => t.replace('"rating": 4', '"rating": 9'));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `Invalid content: content/${NECK}: line 3: rating: expected a whole number from 1 to 5, got 9`,
    ]);
  });

  it("a review written as one flow mapping or as JSON is read as YAML reads it; a ' #' cutting a value short is named", async () => {
    const root = await copy();
    const file = path.join(root, "content", NECK);
    const json = {
      date: "2024-04-10",
      published_at: "2024-04-10T12:00:00Z",
      rating: 4,
      author: "Gus L.",
      text: "Came in with neck pain. The front desk was never rude. Tom lent me a foam roller.",
      source: { platform: "direct" },
      verification: { method: "invoice", verified_on: "2024-04-10" },
    };
    await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    expect(await check(root)).toMatchObject({ code: 0 });
    // Compact JSON: a value's quote follows its key's colon with no space, and " #" inside it is text.
    await writeFile(file, `${JSON.stringify({ ...json, title: "Clinic #1 in town" })}\n`);
    expect(await check(root)).toMatchObject({ code: 0 });
    await writeFile(file, `${JSON.stringify({ ...json, source: { platform: "fax" } })}\n`);
    expect((await check(root)).stderr).toContain(`content/${NECK}: line 1: source.platform: expected one of google`);

    await writeFile(file, `${JSON.stringify({ ...json, rating: 9 }, null, 2)}\n`);
    const bad = await check(root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`content/${NECK}: line 4: rating: expected a whole number from 1 to 5, got 9`);
    expect(bad.stderr).not.toContain("is not a field");

    // YAML reads the title as "Clinic" and the rest of its line as a comment.
    await writeFile(
      file,
      `${JSON.stringify(json, null, 2).replace('"rating": 4,', '"rating": 4, title: Clinic #1 in town,')}\n`,
    );
    const cut = await check(root);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(
      `content/${NECK}: line 4: title: everything on this line from " #" on is ignored (YAML reads it as a comment), which cuts the value short at "Clinic" — put the whole value in quotes`,
    );
  });

  it("a review file that is a list gets the one message that says so", async () => {
    const root = await copy();
    await writeFile(path.join(root, "content", NECK), "- date: 2024-04-10\n- rating: 4\n");
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `Invalid content: content/${NECK}: line 1: (file): expected a YAML mapping of review fields, got [{date: "2024-04-10"}, {rating: 4}]`,
    ]);
  });

  it("a number or yes/no where text goes is named as written, with the quotes to add", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", "author: 0x1F"));
    await edit(path.join(root, "content/business.yaml"), (t) => t.replace(/postal_code: .*/, "postal_code: 02134"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: YAML reads 0x1F as a number (31), not as text — put it in quotes: author: "0x1F"`,
    );
    expect(stderr).toMatch(
      /content\/business\.yaml: line \d+: address\.postal_code: YAML reads 02134 as a number \(2134\), not as text — put it in quotes: postal_code: "02134"/,
    );
  });

  it("a value opening with a no-break space before * is read as the text it is", async () => {
    const root = await copy();
    // YAML strips only spaces and tabs, so the value is "\u00a0*Best* chiro" (the schema trims the
    // no-break space); review:new writes a title pasted this way just so.
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace("author: Gus L.", "author: Gus L.\ntitle: \u00a0*Best* chiro")
        .replace("rating: 4", "rating: 4 # stars"),
    );
    expect(await check(root)).toMatchObject({ code: 0, stderr: "" });
  });

  it("a value ending in a colon and an em space is not taken for an unquoted ': '", async () => {
    const root = await copy();
    // YAML needs a space or tab after the colon: this is the text "Verdict:" and an em space.
    await edit(path.join(root, "content", NECK), (t) =>
      t.replace("author: Gus L.", "author: Gus L.\ntitle: Verdict:\u2003").replace("rating: 4", "rating: 4 # stars"),
    );
    expect(await check(root)).toMatchObject({ code: 0, stderr: "" });
  });

  it("a YAML tag the content files cannot use (!!binary, !!timestamp) is named at its field", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) =>
      t
        .replace("author: Gus L.", "author: !!binary R3VzIEwu")
        .replace("date: 2024-04-10", "date: !!timestamp 2024-04-10"),
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 1: the date starts with !, which YAML reads as a type tag — put the whole date in quotes: date: "!!timestamp 2024-04-10"`,
    );
    expect(stderr).toContain(`content/${NECK}: line 4: the author starts with !, which YAML reads as a type tag`);
    expect(stderr).not.toContain("unknown tag");
  });

  it("a rating in quotes is told that the quotes make it text", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("rating: 4", 'rating: "4"'));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 3: rating: expected a whole number from 1 to 5, got "4", which the quotes make text — remove them: rating: 4`,
    );
  });

  it("a ' #' inside a reply written inline over two lines is named: YAML would cut the reply short silently", async () => {
    const root = await copy();
    // Valid YAML: the reply's text reads "We are", the rest of its line a comment.
    await edit(
      path.join(root, "content", NECK),
      (t) => `${t}response: {date: 2024-04-11, text: We are #1 in town,\n  }\n`,
    );
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 12: text: everything on this line from " #" on is ignored (YAML reads it as a comment), which cuts the value short at "We are" — put the whole value in quotes`,
    );
  });

  it("an author named Null is told that YAML reads it as nothing, not that the author is empty", async () => {
    const root = await copy();
    await edit(path.join(root, "content", NECK), (t) => t.replace("author: Gus L.", "author: Null"));
    const { code, stderr } = await check(root);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: YAML reads Null as nothing, not as text — put it in quotes: author: "Null"`,
    );
  });
});
