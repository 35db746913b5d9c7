import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkEditedCopy } from "../helpers/check-content-run.ts";
import { runAt } from "../helpers/review-new-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * An author or a title is one line wherever it is shown (a page's heading, a feed entry's title,
 * the log's policy page): a line break or a tab inside one is refused by `npm run check` and by
 * `npm run review:new`, naming the file, line, field and character. One at either end of the value
 * is trimmed before it is published, so a one-line `title: |` block still passes.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

const checkWith = (change: (text: string) => string) => checkEditedCopy(temp, FIXTURE, NECK, change);
const HOW = "a name or a title is shown on one line: write it on one line, with a space where the break is";

describe("npm run check: a line break in an author or a title", () => {
  it.each([
    ['"Gus\\nL."', "U+000A LINE FEED", '"Gus\\nL."'],
    ['"Gus\\tL."', "U+0009 CHARACTER TABULATION", '"Gus\\tL."'],
    ['"Gus\\u2028L."', "U+2028 LINE SEPARATOR", '"Gus\\u2028L."'],
    ['"Gus\\u2029L."', "U+2029 PARAGRAPH SEPARATOR", '"Gus\\u2029L."'],
  ])("author %s is refused at its line, naming the character", async (value, what, shown) => {
    const { code, stderr } = await checkWith((t) => t.replace("author: Gus L.", `author: ${value}`));
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: holds a line break or a tab (${what}) — ${HOW}, got ${shown}`,
    );
  });

  it("a title written as a block of two lines is refused at its line", async () => {
    const { code, stderr } = await checkWith((t) =>
      t.replace("author: Gus L.\n", "author: Gus L.\ntitle: |\n  Neck pain\n  gone\n"),
    );
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 5: title: holds a line break or a tab (U+000A LINE FEED) — ${HOW}, got "Neck pain\\ngone\\n"`,
    );
  });

  it("a one-line block title and a name folded over two lines pass: nothing is left of the break", async () => {
    const folded = await checkWith((t) =>
      t.replace("author: Gus L.\n", "author: Gus\n  L.\ntitle: |\n  Neck pain gone\n"),
    );
    expect(folded).toMatchObject({ code: 0, stderr: "" });
  });

  it("review:new refuses a line break in --author and --title, writing nothing", async () => {
    const dir = await temp.copy(FIXTURE, "pr-name-lines-");
    const { code, err } = await runAt("2026-03-14T10:00:00Z", dir, ["--author", "Gus\nL.", "--title", "Neck\tpain"]);
    expect(code).toBe(2);
    expect(err).toContain(
      `review:new: --author: holds a line break or a tab (U+000A LINE FEED) — ${HOW}, got "Gus\\nL."`,
    );
    expect(err).toContain(
      `review:new: --title: holds a line break or a tab (U+0009 CHARACTER TABULATION) — ${HOW}, got "Neck\\tpain"`,
    );
  });
});
