import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main as reviewNew } from "../../../scripts/review-new.ts";
import { runAstroBuild } from "../../../src/build/astro-build.ts";
import { checkContentDir, skippedNotice } from "../../../src/io/content-check.ts";
import { freshLogEnv, tempDistDir } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/** A review file npm run review:new made and nobody filled in yet: UNFINISHED_REVIEWS (src/io/content-check.ts). */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
/** After every fixture review: "the future" starts well after them. */
const NOW = new Date("2025-12-01T12:00:00Z");

const temp = tempFolders();

const fixtureCopy = () => temp.copy(FIXTURE, "pr-scaffold-");

/** `npm run review:new` for Maria G. on 2025-11-30, with no review log to read (port 9 is discard). */
async function newScaffold(dir: string, say: (line: string) => void = () => {}): Promise<void> {
  const env = { BASE_URL: "http://127.0.0.1:9", LOG_DIR: path.join(dir, ".log"), DATA_DIR: path.join(dir, ".data") };
  const args = ["--author", "Maria G.", "--rating", "5", "--date", "2025-11-30"];
  expect(await reviewNew(args, { contentDir: dir, now: NOW, out: say, err: say, env })).toBe(0);
}

describe("a review:new scaffold not filled in yet", () => {
  it("reads a fresh review:new scaffold as not filled in yet: an error by default, left out with a notice in skip mode", async () => {
    const dir = await fixtureCopy();
    const lines: string[] = [];
    await newScaffold(dir, (l) => lines.push(l));
    const scaffold = path.join(dir, "reviews/2025/2025-11-30-maria-g.yaml");
    expect(lines.join("\n")).toContain("npm run check");

    const strict = await checkContentDir(dir, { now: NOW });
    expect(strict.ok ? [] : strict.problems).toEqual([
      `${scaffold}: line 19: the text is not filled in yet — paste the review text after text: | (npm run review:new leaves it empty)`,
      // Nor does the scaffold say where it was posted or how it was verified: the editor states both.
      `${scaffold}: line 22: the source.platform is empty — write one of google, yelp, facebook, healthgrades, direct`,
      `${scaffold}: line 30: the verification is not stated yet — say how this review was verified (appointment record, invoice, the platform it was posted on, or an email confirmation): write under verification: method: (one of appointment_record, invoice, platform_verified, email_confirmation) and verified_on: (the day you checked, YYYY-MM-DD); the label is shown to readers (docs/editors.md)`,
    ]);

    const lenient = await checkContentDir(dir, { now: NOW, unfinished: "skip" });
    expect(lenient.ok).toBe(true);
    expect(lenient.skipped).toEqual([scaffold]);
    expect(lenient.ok && lenient.content.reviews.map((r) => r.id)).not.toContain("2025-11-30-maria-g");
  });

  it("a build in skip mode leaves a scaffold out with the notice once, and publishes every other review", async () => {
    const dir = await fixtureCopy();
    await newScaffold(dir);
    const scaffold = path.join(dir, "reviews/2025/2025-11-30-maria-g.yaml");
    // Not `buildSite`: its builds are --silent, and the notice is a warning of Astro's logger.
    const distDir = await tempDistDir();
    const build = await runAstroBuild({
      distDir,
      contentDir: dir,
      env: {
        ...process.env,
        BASE_URL: "https://reviews.example",
        HUB_URL: "off",
        UNFINISHED_REVIEWS: "skip",
        ...(await freshLogEnv("https://reviews.example")),
      },
      lock: true,
      dropCache: true,
    });
    const output = build.stdout + build.stderr;
    expect(build.code, output).toBe(0);
    expect(output.split(skippedNotice(scaffold)).length - 1).toBe(1);
    const published = JSON.parse(await readFile(path.join(distDir, "reviews.json"), "utf8")) as {
      reviews: { id: string }[];
    };
    const expected = await checkContentDir(FIXTURE, { now: NOW });
    expect(published.reviews.map((r) => r.id).sort()).toEqual(
      (expected.ok ? expected.content.reviews.map((r) => r.id) : ["fixture is invalid"]).sort(),
    );
  }, 300_000);
});

describe("the notice of a left-out scaffold", () => {
  it("quotes an odd file name", () => {
    const odd = "content/reviews/2026/a b\u001b[2J.yaml";
    const notice = skippedNotice(odd);
    expect(notice).toBe(
      '"content/reviews/2026/a b\\u001b[2J.yaml": not filled in yet (text is empty); left out until it is',
    );
  });
});
