import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import jsYaml from "js-yaml";
import { describe, expect, it } from "vitest";

/** A scaffold as its YAML says; `published_at` is what the assertions read. */
const parse = (text: string) =>
  jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA }) as { published_at: string } & Record<string, unknown>;

import { main } from "../../scripts/review-new.ts";
import { reviewFields } from "../../src/content/dataset.ts";
import { isRfc3339 } from "../../src/content/dates.ts";
import type { ContentError } from "../../src/content/errors.ts";
import { ReviewFileSchema } from "../../src/content/schema.ts";
import { checkContentDir } from "../../src/io/content-check.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { keyOf } from "../../src/io/log-key.ts";
import { updateLog, withdrawalsOf } from "../../src/io/review-log.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";
import { noLogs, reviewNew, runAt } from "../helpers/review-new-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/basic-content");
const run = promisify(execFile);

const temp = tempFolders();

const contentDir = () => temp.copy(FIXTURE, "pr-review-new-");

/**
 * `npm run check` on `dir`, as a child process with no review log to compare against: neither
 * LOG_DIR nor DATA_DIR/log, where the project's own `npm start` keeps the log of its sample site.
 */
function checkContent(dir: string) {
  return run(path.join(ROOT, "node_modules/.bin/node"), ["scripts/check-content.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTENT_DIR: dir,
      BASE_URL: "",
      LOG_DIR: path.join(dir, ".no-log"),
      DATA_DIR: path.join(dir, ".no-data"),
    },
  });
}

/** What an editor does next: paste the text in place of the empty string. */
async function fillText(file: string): Promise<void> {
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace('text: ""', "text: |\n  Dr. Patel sorted out my neck in one visit."));
}

describe("npm run review:new", () => {
  it("scaffolds a file that validates once the text is filled in, and says what to do next", async () => {
    const dir = await contentDir();
    const before = Math.floor(Date.now() / 1000) * 1000;
    const { stdout } = await reviewNew(dir, [
      ...["--author", "Maria G.", "--rating", "4", "--date", "2025-03-10"],
      ...["--platform", "google", "--verified-by", "invoice"],
    ]);
    const after = Date.now();

    const file = path.join(dir, "reviews/2025/2025-03-10-maria-g.yaml");
    expect(stdout).toContain(`Created ${file}`);
    expect(stdout).toMatch(/npm run check/);
    expect(stdout).toContain(`git add ${file} && git commit`);

    const scaffold = parse(await readFile(file, "utf8"));
    expect(scaffold).toMatchObject({ date: "2025-03-10", rating: 4, author: "Maria G.", text: "" });
    expect(isRfc3339(scaffold.published_at)).toBe(true);
    expect(Date.parse(scaffold.published_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(scaffold.published_at)).toBeLessThanOrEqual(after);
    // Unfilled, it cannot be published by accident.
    expect(ReviewFileSchema.safeParse(scaffold).error?.issues.map((i) => i.path.join("."))).toEqual(["text"]);

    await fillText(file);
    expect(ReviewFileSchema.safeParse(parse(await readFile(file, "utf8"))).success).toBe(true);
    const { reviews } = await loadContent(dir, { now: new Date() });
    expect(reviews.map((r) => r.id)).toContain("2025-03-10-maria-g");
  });

  it("--help and -h print the usage and exit 0, writing nothing", async () => {
    for (const flag of ["--help", "-h"]) {
      const out: string[] = [];
      const dir = await mkdtemp(path.join(os.tmpdir(), "pr-review-new-help-"));
      try {
        expect(await main([flag], { contentDir: dir, now: new Date(), out: (l) => out.push(l), err: () => {} })).toBe(
          0,
        );
        expect(out.join("\n")).toMatch(/^usage: npm run review:new -- --author/);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it("writes a title ending in an em space as the text it is, not as a number", async () => {
    const dir = await contentDir();
    const title = "1984\u2003";
    const { code } = await runAt("2025-03-11T09:00:00Z", dir, ["--author", "Maria G.", "--title", title]);
    expect(code).toBe(0);
    const scaffold = parse(await readFile(path.join(dir, "reviews/2025/2025-03-11-maria-g.yaml"), "utf8"));
    expect(scaffold.title).toBe(title);
  });

  // A text pasted on Windows ends its lines with CR LF: a line break, as it is in a file saved there.
  it("takes a --text whose lines end in CR LF as the lines they are", async () => {
    const dir = await contentDir();
    const text = "Dr. Patel sorted out my neck.\r\n\r\nThe front desk was kind.\r\n";
    const { code, err } = await runAt("2025-03-11T09:00:00Z", dir, ["--author", "Maria G.", "--text", text]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const scaffold = parse(await readFile(path.join(dir, "reviews/2025/2025-03-11-maria-g.yaml"), "utf8"));
    expect(scaffold.text).toBe("Dr. Patel sorted out my neck.\n\nThe front desk was kind.\n");
  });

  it("names a text over the limit by its length, as npm run check does, without printing it back", async () => {
    const dir = await contentDir();
    const { code, err } = await runAt("2025-03-11T09:00:00Z", dir, [
      "--author",
      "Maria G.",
      "--text",
      "word ".repeat(1500),
    ]);
    expect(code).toBe(2);
    expect(err).toContain("review:new: --text: expected review text of at most 5000 characters, got 7499 characters");
    expect(err).not.toContain("word word");
  });

  it("prints commands to paste that a shell reads as written, whatever the reviewer's name holds", async () => {
    const dir = await contentDir();
    // Run, the substitutions would print "ran" in place of themselves.
    const author = "Sam $(echo ran) `echo ran` O'Neil";
    const { stdout } = await reviewNew(dir, ["--author", author, "--date", "2025-03-10"]);
    const commit = (/&& git commit -m (.*)$/m.exec(stdout) as RegExpExecArray)[1] as string;
    const { stdout: message } = await run("sh", ["-c", `printf %s ${commit}`]);
    expect(message).toBe(`Add review by ${author}`);
  });

  it("uses today's UTC date and the clock's time when no date is given", async () => {
    const dir = await contentDir();
    const { code } = await runAt("2026-01-01T00:00:30.250Z", dir, [
      ...["--author", "José Núñez", "--rating", "5", "--verified-by", "email"],
    ]);
    expect(code).toBe(0);
    const scaffold = parse(await readFile(path.join(dir, "reviews/2026/2026-01-01-jose-nunez.yaml"), "utf8"));
    expect(scaffold).toMatchObject({
      date: "2026-01-01",
      published_at: "2026-01-01T00:00:30Z",
      author: "José Núñez",
      verification: { method: "email_confirmation", verified_on: "2026-01-01" },
    });
  });

  it("states no verification and no platform unless told: npm run check refuses the scaffold until the editor does", async () => {
    const dir = await contentDir();
    const text = "Dr. Patel sorted out my neck in one visit.";
    const { stdout } = await reviewNew(dir, ["--author", "Maria G.", "--rating", "5", "--text", text]);
    expect(stdout).toContain("say how you verified it");
    const file = (/Created (.*)/.exec(stdout) as RegExpExecArray)[1] as string;
    const scaffold = parse(await readFile(file, "utf8"));
    expect(scaffold).toMatchObject({ source: { platform: null }, verification: { method: null, verified_on: null } });

    const failed = await checkContent(dir).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    const lines = (failed as { stderr: string }).stderr.split("\n");
    const methodLine = (await readFile(file, "utf8")).split("\n").indexOf("  method:") + 1;
    expect(lines).toContain(
      `  ${file}: line ${methodLine}: the verification is not stated yet — say how this review was verified (appointment record, invoice, the platform it was posted on, or an email confirmation): write under verification: method: (one of appointment_record, invoice, platform_verified, email_confirmation) and verified_on: (the day you checked, YYYY-MM-DD); the label is shown to readers (docs/editors.md)`,
    );
    expect(lines.some((l) => l.includes("the source.platform is empty — write one of google"))).toBe(true);
    expect((failed as { stderr: string }).stderr).not.toMatch(/\n\s+at /);

    // Stated, it passes.
    const today = new Date().toISOString().slice(0, 10);
    const stated = (await readFile(file, "utf8"))
      .replace("  platform:\n", "  platform: google\n")
      .replace("  method:\n", "  method: invoice\n")
      .replace("  verified_on:\n", `  verified_on: ${today}\n`);
    await writeFile(file, stated);
    const { stdout: ok } = await checkContent(dir);
    expect(ok).toContain("9 reviews, business and insights are valid");
  });

  it("never overwrites: a second and third review by the same name get -2 and -3", async () => {
    const dir = await contentDir();
    const args = ["--author", "Maria G.", "--rating", "5", "--date", "2025-03-10", "--verified-by", "invoice"];
    await runAt("2025-03-11T09:00:00Z", dir, args);
    const first = await readFile(path.join(dir, "reviews/2025/2025-03-10-maria-g.yaml"), "utf8");
    const second = await runAt("2025-03-11T09:05:00Z", dir, args);
    const third = await runAt("2025-03-11T09:10:00Z", dir, args);

    expect(second.out).toContain("2025-03-10-maria-g-2.yaml");
    expect(third.out).toContain("2025-03-10-maria-g-3.yaml");
    expect(await readFile(path.join(dir, "reviews/2025/2025-03-10-maria-g.yaml"), "utf8")).toBe(first);
    expect((await readdir(path.join(dir, "reviews/2025"))).filter((f) => f.includes("maria-g"))).toHaveLength(3);
  });

  it("never takes the id of a review a log holds whose file is gone (withdrawn, then deleted)", async () => {
    const dir = await contentDir();
    // The log npm start keeps under DATA_DIR/log/ lists 2024-11-21-mike; its file is then deleted.
    const report = await checkContentDir(dir, { now: new Date("2026-11-27T00:00:00Z") });
    if (!report.ok) throw new Error(report.problems.join("\n"));
    const origin = "localhost:4321/log";
    await updateLog({
      dir: path.join(noLogs(dir).DATA_DIR, "log", "localhost_4321_log"),
      origin,
      key: keyOf(generateKeyPair(origin).skey, origin, "a test key"),
      config: { BASE_URL: "http://localhost:4321", LOG_NEW: false, CONTENT_DIR: dir },
      content: { reviews: reviewFields(report.content), withdrawn: withdrawalsOf(report.content) },
      today: "2026-11-27",
      warn: () => {},
    });
    await rm(path.join(dir, "reviews/2024/2024-11-21-mike.yaml"));

    const { code, out } = await runAt("2026-11-27T09:00:00Z", dir, ["--author", "Mike", "--date", "2024-11-21"]);
    expect(code).toBe(0);
    expect(out).toContain("2024-11-21-mike-2.yaml");
    expect(await readdir(path.join(dir, "reviews/2024"))).not.toContain("2024-11-21-mike.yaml");
  });

  it("leaves the rating empty when not given, so the build names it until an editor sets it", async () => {
    const dir = await contentDir();
    const { out } = await runAt("2025-03-13T09:00:00Z", dir, [
      ...["--author", "Maria G.", "--platform", "yelp", "--verified-by", "platform"],
    ]);
    expect(out).toContain("set the rating");
    const file = path.join(dir, "reviews/2025/2025-03-13-maria-g.yaml");
    await fillText(file);
    const error = await loadContent(dir, { now: new Date("2025-03-13T09:00:00Z") }).catch((e: unknown) => e);
    expect((error as ContentError).problems).toEqual([
      `${file}: line 10: the rating is empty — write a whole number from 1 to 5`,
    ]);
  });

  it("given the text and rating, writes a complete review and prints the machine's reading of it", async () => {
    const dir = await temp.make("pr-review-new-");
    await cp(path.join(ROOT, "test/fixtures/insights-content"), dir, { recursive: true });
    const text = "The front desk was lovely, but the wait was over an hour.";
    const { code, out } = await runAt("2025-12-01T12:00:00Z", dir, [
      "--author",
      "Ines P.",
      "--rating",
      "3",
      "--title",
      "Kind people, slow day",
      "--text",
      text,
      ...["--platform", "direct", "--verified-by", "appointment_record"],
    ]);
    expect(code).toBe(0);
    const file = path.join(dir, "reviews/2025/2025-12-01-ines-p.yaml");
    expect(parse(await readFile(file, "utf8"))).toMatchObject({ title: "Kind people, slow day", text, rating: 3 });
    expect(out).toContain("Machine reading of 2025-12-01-ines-p (3 stars), sentence by sentence:");
    // The fixture's aspects have no word of this title, so it is not read (docs/insights.md).
    expect(out).toContain(`  (title "Kind people, slow day": names no aspect, not read)\n  1. ${text}`);
    expect(out).toMatch(/ {7}staff {8}positive \+0\.\d\d {2}evidence: lovely\+/);
    expect(out).toMatch(/ {7}scheduling {3}negative -0\.\d\d {2}evidence: /);
    expect(out).toContain("npm run check -- --explain");
  });
});
