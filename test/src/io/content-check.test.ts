import path from "node:path";
import { describe, expect, it } from "vitest";
import { main as check } from "../../../scripts/check-content.ts";
import { ReviewFileSchema } from "../../../src/content/schema.ts";
import { checkContentDir } from "../../../src/io/content-check.ts";
import { buildSite, tempDistDir } from "../../helpers/build-site.ts";
import { edit } from "../../helpers/check-content-run.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/insights-content");
/** After every fixture review: "the future" starts well after them. */
const NOW = new Date("2025-12-01T12:00:00Z");
const NECK = "2024-04-10-neck-pain";

const temp = tempFolders();

const fixtureCopy = () => temp.copy(FIXTURE, "pr-check-");

/** A copy with several problems in one review file and one in the FAQ. */
async function brokenCopy(): Promise<{ dir: string; review: string; faq: string }> {
  const dir = await fixtureCopy();
  const review = path.join(dir, "reviews/2024", `${NECK}.yaml`);
  await edit(review, (t) =>
    t
      .replace(/^rating: \d/m, "rating: 6\nstars: 5")
      .replace(/^date: 2024/m, "date: 2023")
      .concat("technicians: [dr-nobody]\n"),
  );
  const faq = path.join(dir, "insights/faq.yaml");
  await edit(faq, (t) => t.replace("2024-08-01-billed-twice", "2024-08-02-nobody"));
  return { dir, review, faq };
}

async function runCheck(env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  // No review log: the project's own DATA_DIR, or an npm start on the default port, may hold a
  // log of other content (port 9 is discard: nothing answers there).
  const log = {
    LOG_DIR: await tempDistDir("pr-log-"),
    DATA_DIR: await tempDistDir("pr-data-"),
    BASE_URL: "http://127.0.0.1:9",
  };
  const code = await check({ env: { ...log, ...env }, now: NOW, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("content check", () => {
  it("reports every problem of a file, even next to an unknown field, and the insights' problems too", async () => {
    const { dir, review, faq } = await brokenCopy();
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok).toBe(false);
    expect(report.ok ? [] : report.problems).toEqual([
      `${review}: line 3: rating: expected a whole number from 1 to 5, got 6`,
      `${review}: line 4: stars is not a known field — check its spelling or remove it (the fields here are ${Object.keys(ReviewFileSchema.shape).join(", ")})`,
      `${review}: line 1: date: must fall in 2024, the year folder the file is in, got "2023-04-10"`,
      `${review}: line 13: technicians[0]: unknown id; expected one of anika-patel, tom-lindqvist, jenna-okafor (see business.yaml), got "dr-nobody"`,
      `${faq}: line 4: faq[0].evidence[1]: unknown review id; no content/reviews/<year>/<id>.yaml has it, got "2024-08-02-nobody"`,
    ]);
  });

  it("never runs a rule on a field that is itself invalid", async () => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2024", `${NECK}.yaml`);
    await edit(review, (t) => t.replace(/^date: .*$/m, "date: 2024-02-30"));
    const report = await checkContentDir(dir, { now: NOW });
    // No "must fall in" or "verified_on before date" lines about a date that is not a date.
    expect(report.ok ? [] : report.problems).toEqual([
      `${review}: line 1: date: expected a real calendar date as YYYY-MM-DD, got "2024-02-30"`,
    ]);
  });

  it("compares no field with a date refused as in the future: its own problem is the one to fix", async () => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2025/2025-02-20-tom-alias.yaml");
    // NOW is 2025-12-01: the review date is in the future, the other dates are not.
    await edit(review, (t) =>
      t
        .replace(/^date: .*$/m, "date: 2025-12-25")
        .replace(/^published_at: .*$/m, 'published_at: "2025-11-02T10:00:00Z"')
        .replace(/verified_on: .*$/m, "verified_on: 2025-11-03")
        .concat("response:\n  date: 2025-11-04\n  text: Thank you.\n"),
    );
    const result = await runCheck({ CONTENT_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `Invalid content: ${review}: line 1: date: must not be in the future (today is 2025-12-01), got "2025-12-25"`,
    );
    // A published_at in the future is not compared with the withdrawal either.
    await edit(review, (t) =>
      t
        .replace(/^date: .*$/m, "date: 2025-02-20")
        .replace(/^published_at: .*$/m, 'published_at: "2025-12-24T10:00:00Z"')
        .concat("withdrawn:\n  reason: author-request\n  date: 2025-11-20\n"),
    );
    expect((await runCheck({ CONTENT_DIR: dir })).err).toBe(
      `Invalid content: ${review}: line 2: published_at: must not be in the future, got "2025-12-24T10:00:00Z"`,
    );
  });

  it("names a withdrawn review cited as FAQ evidence as withdrawn, with or without other problems", async () => {
    const dir = await fixtureCopy();
    await edit(path.join(dir, "reviews/2024/2024-08-01-billed-twice.yaml"), (t) =>
      t.concat("withdrawn:\n  reason: author-request\n  date: 2025-11-20\n"),
    );
    const faq = path.join(dir, "insights/faq.yaml");
    const line = `${faq}: line 4: faq[0].evidence[1]: review withdrawn (its file says withdrawn:), so it is not published; remove it from the evidence, got "2024-08-01-billed-twice"`;
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toEqual([line]);
    // Another file's problem lists every id a file names: the withdrawn one is still not evidence.
    const review = path.join(dir, "reviews/2024", `${NECK}.yaml`);
    await edit(review, (t) => t.replace(/^rating: \d/m, "rating: 6"));
    const broken = await checkContentDir(dir, { now: NOW });
    expect(broken.ok ? [] : broken.problems).toEqual([
      `${review}: line 3: rating: expected a whole number from 1 to 5, got 6`,
      line,
    ]);
  });

  it("npm run check exits 0 on valid content and 1 with one line per problem", async () => {
    const good = await runCheck({ CONTENT_DIR: FIXTURE });
    expect(good).toMatchObject({ code: 0, err: "" });
    expect(good.out).toMatch(/8 reviews, business and insights are valid$/);

    const { dir, review } = await brokenCopy();
    const bad = await runCheck({ CONTENT_DIR: dir });
    expect(bad.code).toBe(1);
    expect(bad.err.split("\n")[0]).toBe("Invalid content (5 problems):");
    expect(bad.err).toContain(`  ${review}: line 4: stars is not a known field`);
  });

  it.each([
    [
      "an unquoted colon in the title",
      (t: string) => t.replace("author: Gus L.", "author: Gus L.\ntitle: Verdict: finally fixed"),
      'line 5: the title contains ": " — put the whole title in quotes: title: "Verdict: finally fixed"',
    ],
    [
      "a text line that lost its indentation",
      (t: string) => t.replace("The front desk", "\nThe front desk"),
      "line 7: this line belongs to the text above but is not indented — indent every line of the text by two spaces",
    ],
    [
      "a misspelt field",
      (t: string) => t.replace("author:", "auther:"),
      "line 4: auther is not a known field — did you mean author? If not, remove the line",
    ],
    [
      "an empty rating",
      (t: string) => t.replace("rating: 4", "rating:"),
      "line 3: the rating is empty — write a whole number from 1 to 5",
    ],
  ])("npm run check on %s says where and what to do, in plain words", async (_, change, message) => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2024", `${NECK}.yaml`);
    await edit(review, change);
    const result = await runCheck({ CONTENT_DIR: dir });
    expect(result.code).toBe(1);
    expect(result.err).toBe(`Invalid content: ${review}: ${message}`);
  });

  it("names an editor's unknown aspect id and unknown polarity with the allowed values", async () => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2025/2025-06-10-mixed-care.yaml");
    await edit(review, (t) => `${t}aspects: {parkng: negative, care: positive}\n`);
    const other = path.join(dir, "reviews/2023/2023-01-05-parking.yaml");
    await edit(other, (t) => `${t}aspects:\n  location: great\n`);
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok).toBe(false);
    expect(report.ok ? [] : report.problems).toEqual([
      `${other}: line 14: aspects.location: expected one of positive, neutral, negative, got "great"`,
      `${review}: line 12: aspects.parkng: unknown aspect id; valid ids are pain-relief, care, staff, scheduling, billing, facility, location, got "parkng"`,
    ]);
    await edit(review, (t) => t.replace("parkng", "location"));
    await edit(other, (t) => t.replace("great", "neutral"));
    expect((await checkContentDir(dir, { now: NOW })).ok).toBe(true);
  });

  it("names an unknown aspect id in a review that has other problems too", async () => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2025/2025-06-10-mixed-care.yaml");
    await edit(review, (t) => `${t.replace(/^rating: \d/m, "rating: 6")}aspects: {parkng: negative, care: great}\n`);
    const report = await checkContentDir(dir, { now: NOW });
    const problems = report.ok ? [] : report.problems;
    expect(problems).toContain(
      `${review}: line 12: aspects.parkng: unknown aspect id; valid ids are pain-relief, care, staff, scheduling, billing, facility, location, got "parkng"`,
    );
    expect(problems.filter((p) => p.includes("aspects.care"))).toHaveLength(1);
    expect(problems.some((p) => p.includes("rating: expected a whole number"))).toBe(true);
  });

  it("refuses a reviewed: date of the FAQ or the summary that is still to come", async () => {
    const dir = await fixtureCopy();
    const faq = path.join(dir, "insights/faq.yaml");
    const summary = path.join(dir, "insights/summary.md");
    await edit(faq, (t) => `reviewed: 2025-12-02\n${t}`);
    await edit(summary, (t) => `---\nreviewed: 2026-01-01\n---\n${t}`);
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toEqual([
      `${faq}: line 1: reviewed: must not be in the future (today is 2025-12-01), got "2025-12-02"`,
      `${summary}: line 2: reviewed: must not be in the future (today is 2025-12-01), got "2026-01-01"`,
    ]);
    await edit(faq, (t) => t.replace("2025-12-02", "2025-12-01"));
    await edit(summary, (t) => t.replace("2026-01-01", "2025-11-30"));
    expect((await checkContentDir(dir, { now: NOW })).ok).toBe(true);
  });

  it("refuses an editor's empty aspects: map, which would leave the machine's reading in place", async () => {
    const dir = await fixtureCopy();
    const review = path.join(dir, "reviews/2025/2025-06-10-mixed-care.yaml");
    await edit(review, (t) => `${t}aspects: {}\n`);
    const report = await checkContentDir(dir, { now: NOW });
    expect(report.ok ? [] : report.problems).toEqual([
      `${review}: line 12: aspects: expected at least one aspect labelled positive, neutral or negative (a label replaces the machine's whole reading), or no aspects line, got {}`,
    ]);
    // So --explain, on a review it reads with no aspect, suggests a label rather than that empty map.
    await edit(review, (t) => t.replace("aspects: {}\n", "").replace(/^text: [\s\S]*?(?=^source:)/m, "text: Okay.\n"));
    const out: string[] = [];
    const err: string[] = [];
    const code = await check({
      argv: ["--explain", review],
      env: { CONTENT_DIR: dir },
      now: NOW,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.slice(-3)).toEqual([
      "  no aspect",
      "To correct it, add to the file the aspects it discusses, for example:",
      "  aspects: {pain-relief: positive}",
    ]);
  });

  it("npm run check -- --explain prints the machine's reading of a review, sentence by sentence", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const file = path.join(FIXTURE, "reviews/2025/2025-06-10-mixed-care.yaml");
    const code = await check({
      argv: ["--explain", file],
      env: { CONTENT_DIR: FIXTURE },
      now: NOW,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toEqual([
      "Machine reading of 2025-06-10-mixed-care (3 stars), sentence by sentence:",
      "  1. Dr. Patel was great but billing was a mess.",
      "       care         positive +0.72  evidence: great+ [Dr. Patel was great]",
      "       billing      negative -0.72  evidence: mess- [but billing was a mess.]",
      "Review:",
      "  billing      negative -0.72  (a sentence may be quoted)",
      "  care         positive +0.72  (a sentence may be quoted)",
      "To confirm it (or correct it) add to the file, then edit what is wrong:",
      "  aspects: {billing: negative, care: positive}",
    ]);
    const missing = await check({
      argv: ["--explain", "content/reviews/2025/nobody.yaml"],
      env: { CONTENT_DIR: FIXTURE },
      now: NOW,
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(missing).toBe(1);
    expect(err.join("\n")).toContain("content/reviews/2025/nobody.yaml: (file): does not exist");
  });

  it("npm run check names a bad environment variable and exits 2", async () => {
    const result = await runCheck({ CONTENT_DIR: FIXTURE, UNFINISHED_REVIEWS: "maybe" });
    expect(result.code).toBe(2);
    expect(result.err).toContain('UNFINISHED_REVIEWS must be error or skip, got "maybe"');
  });

  it("the build prints exactly what npm run check prints: no Location, no stack trace", async () => {
    const { dir } = await brokenCopy();
    const expected = (await runCheck({ CONTENT_DIR: dir })).err;
    const build = await buildSite(dir, { BASE_URL: "https://reviews.example" });
    temp.add(build.distDir);
    expect(build.code).toBe(1);
    const output = build.stdout + build.stderr;
    expect(output).toContain(expected);
    expect(output).not.toMatch(/Location:|Stack trace:|\n\s+at /);
  }, 300_000); // Waits its turn on the machine-wide build lock.
});
