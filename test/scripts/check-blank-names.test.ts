import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkEditedCopy } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on an author or a title that fonts draw as nothing: every default-ignorable
 * character (Unicode's own list of the invisible ones) is refused in a name, not only the zero
 * widths, so a name can neither look blank nor look like another; the emoji sequences that need
 * some of them still pass. Messages name the character, since a terminal shows it as nothing.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

/** `npm run check` on the fixture with the neck-pain review's author written as `author` (a YAML scalar). */
const checkAuthor = (author: string) =>
  checkEditedCopy(temp, FIXTURE, NECK, (t) => t.replace("author: Gus L.", `author: ${author}`));

describe("npm run check: a name that looks blank", () => {
  it.each([
    ['"\\u2062"', "U+2062 INVISIBLE TIMES", '"\\u2062"'],
    ['"Gus\\u2061 L."', "U+2061 FUNCTION APPLICATION", '"Gus\\u2061 L."'],
    ['"\\uFE0F"', "U+FE0F VARIATION SELECTOR-16", '"\uFE0F"'],
    ['"\\U000E0041\\U000E0042"', "U+E0041", '"\u{E0041}\u{E0042}"'],
    ['"\\U0001D173"', "U+1D173", '"\u{1D173}"'],
    ['"\\u17B4"', "U+17B4 KHMER VOWEL INHERENT AQ", '"\\u17b4"'],
  ])("author %s is refused, naming the character, with the value quoted", async (value, what, shown) => {
    const { code, stderr } = await checkAuthor(value);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `content/${NECK}: line 4: author: holds an invisible character (${what}), which makes a name differ from one that looks the same — delete it (it may be invisible: retype the words around it), got ${shown}`,
    );
  });

  it("a flag's tag sequence, a keycap and a heart's variation selector stay allowed", async () => {
    for (const name of [
      "Gus L. 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
      "Gus 1\uFE0F\u20E3",
      "Gus ❤\uFE0F",
    ]) {
      expect(await checkAuthor(JSON.stringify(name))).toMatchObject({ code: 0, stderr: "" });
    }
  });
});
