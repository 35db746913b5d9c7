import { execFile } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * An editor scaffolds several reviews and finishes one: its reading (`review:new` given the whole
 * review, `npm run check -- --explain`) does not wait for the others, which are still scaffolds, as
 * `npm start` leaves them out. The scaffold itself is told it is not filled in yet.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/insights-content");
const run = promisify(execFile);

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

/** A script of scripts/ as an editor runs it, on the content folder `dir`, with no review log to compare against. */
async function script(dir: string, name: string, args: string[]) {
  const env = {
    ...process.env,
    CONTENT_DIR: dir,
    BASE_URL: "",
    LOG_DIR: path.join(dir, ".no-log"),
    DATA_DIR: path.join(dir, ".no-data"),
  };
  try {
    const { stdout, stderr } = await run(path.join(ROOT, "node_modules/.bin/node"), [`scripts/${name}`, ...args], {
      cwd: ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const COMPLETE = [
  ...["--author", "Ines P.", "--rating", "3", "--date", "2025-12-01"],
  ...["--text", "The front desk was lovely, but the wait was over an hour."],
  ...["--platform", "direct", "--verified-by", "appointment_record"],
];

describe("the machine's reading beside an unfinished scaffold", () => {
  it("review:new prints it, --explain prints it, and --explain of the scaffold says it is not filled in", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-explain-scaffold-"));
    temp.push(dir);
    await cp(FIXTURE, dir, { recursive: true });
    const first = await script(dir, "review-new.ts", ["--author", "Maria G.", "--date", "2025-12-01"]);
    expect(first.code).toBe(0);

    const made = await script(dir, "review-new.ts", COMPLETE);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("Machine reading of 2025-12-01-ines-p (3 stars), sentence by sentence:");
    expect(made.stdout).not.toContain("No reading yet");

    const file = path.join(dir, "reviews/2025/2025-12-01-ines-p.yaml");
    const explained = await script(dir, "check-content.ts", ["--explain", file]);
    expect(explained).toMatchObject({ code: 0, stderr: "" });
    expect(explained.stdout).toContain("Machine reading of 2025-12-01-ines-p (3 stars)");

    const scaffold = path.join(dir, "reviews/2025/2025-12-01-maria-g.yaml");
    const unfinished = await script(dir, "check-content.ts", ["--explain", scaffold]);
    expect(unfinished.code).toBe(1);
    expect(unfinished.stderr).toMatch(new RegExp(`${scaffold}: line \\d+: the text is not filled in yet`));
    expect(unfinished.stderr).not.toContain("ines-p");
    // The whole check still refuses the scaffold, as a build would.
    expect((await script(dir, "check-content.ts", [])).code).toBe(1);
  });
});
