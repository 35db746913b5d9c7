import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run check` on an author or a title that fonts draw as nothing: every default-ignorable
 * character (Unicode's own list of the invisible ones) is refused in a name, not only the zero
 * widths, so a name can neither look blank nor look like another; the emoji sequences that need
 * some of them still pass. Messages name the character, since a terminal shows it as nothing.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const run = promisify(execFile);

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

/** `npm run check` on the fixture with the neck-pain review's author written as `author` (a YAML scalar). */
async function checkAuthor(author: string) {
  const root = await mkdtemp(path.join(os.tmpdir(), "pr-blank-name-"));
  temp.push(root);
  await cp(FIXTURE, path.join(root, "content"), { recursive: true });
  const file = path.join(root, "content", NECK);
  await writeFile(file, (await readFile(file, "utf8")).replace("author: Gus L.", `author: ${author}`));
  const env = { ...process.env, CONTENT_DIR: "content", BASE_URL: "", LOG_DIR: path.join(root, "log") };
  try {
    await run(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "scripts/check-content.ts")], {
      cwd: root,
      env,
    });
    return { code: 0, stderr: "" };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

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
      expect(await checkAuthor(JSON.stringify(name))).toEqual({ code: 0, stderr: "" });
    }
  });
});
