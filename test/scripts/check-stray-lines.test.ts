import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run check` on a line that is no field, written below a field whose value is a date, a number
 * or an inline list: no text is above it to have lost it, so the check does not say one did.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const run = promisify(execFile);

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

/** `npm run check` on the fixture with the neck-pain review's text changed by `edit`. */
async function checkEdited(edit: (text: string) => string) {
  const root = await mkdtemp(path.join(os.tmpdir(), "pr-stray-line-"));
  temp.push(root);
  await cp(FIXTURE, path.join(root, "content"), { recursive: true });
  const file = path.join(root, "content", NECK);
  await writeFile(file, edit(await readFile(file, "utf8")));
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

const LOST = "belongs to the text above";

describe("npm run check: a line that is no field, below a value that is no text", () => {
  it.each([
    ["a date (verified_on, the file's last line)", (t: string) => `${t}my note: call back\n`, 12],
    ["a number (rating)", (t: string) => t.replace("rating: 4\n", "rating: 4\nmy note: call back\n"), 4],
    ["an inline list", (t: string) => `${t}services: [x-ray]\nmy note: call back\n`, 13],
  ])("after %s it is named as no field, not as a lost line of text", async (_, edit, line) => {
    const { code, stderr } = await checkEdited(edit);
    expect(code).toBe(1);
    expect(stderr).not.toContain(LOST);
    expect(stderr).toContain(`content/${NECK}: line ${line}: this line is not a field`);
  });

  it("after a text written on one line it still says the line may be the text's", async () => {
    const { stderr } = await checkEdited((t) =>
      t.replace(/text: \|\n.*\n/, "text: Came in with neck pain.\nDr. Patel: fixed it in one visit.\n"),
    );
    expect(stderr).toContain(`content/${NECK}: line 6: this line ${LOST}`);
  });
});
