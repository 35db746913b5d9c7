import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main as check } from "../../../scripts/check-content.ts";
import { reviewFields } from "../../../src/content/dataset.ts";
import { checkContentDir } from "../../../src/io/content-check.ts";
import { keyOf } from "../../../src/io/log-key.ts";
import { updateLog, withdrawalsOf } from "../../../src/io/review-log.ts";
import { generateKeyPair } from "../../../src/log/note-keys.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * `npm run check` refuses a deleted logged review with no key and no LOG_DIR of its own: here the
 * log is the one `npm start` kept for another port, under DATA_DIR/log/.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const NOW = new Date("2026-11-27T00:00:00Z");
const temp = tempFolders();
const dir = (prefix: string) => temp.make(prefix);

/** The log `npm start` would keep for `origin` under DATA_DIR/log/, of `content` as it is. */
async function keptLog(
  content: string,
  data: string,
  origin: string,
  folder: string,
  skey?: string,
  warn: (line: string) => void = () => {},
) {
  const report = await checkContentDir(content, { now: NOW });
  if (!report.ok) throw new Error(report.problems.join("\n"));
  await updateLog({
    dir: path.join(data, "log", folder),
    origin,
    key: keyOf(skey ?? generateKeyPair(origin).skey, origin, "a test key"),
    config: { BASE_URL: "http://127.0.0.1:9", LOG_NEW: false, CONTENT_DIR: content },
    content: { reviews: reviewFields(report.content), withdrawn: withdrawalsOf(report.content) },
    today: "2026-11-27",
    warn,
  });
}

async function checkAfterDeleting(content: string, data: string) {
  await rm(path.join(content, "reviews", "2024", "2024-11-21-mike.yaml"));
  const out: string[] = [];
  const err: string[] = [];
  const code = await check({
    // Port 9 (discard): nothing is published at BASE_URL; no LOG_DIR, no key.
    env: { CONTENT_DIR: content, DATA_DIR: data, BASE_URL: "http://127.0.0.1:9" },
    now: NOW,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("npm run check and the review logs it finds", () => {
  it("refuses a deletion that a public origin's log under DATA_DIR holds", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    await keptLog(content, data, "reviews.example/log", "reviews.example_log");
    const r = await checkAfterDeleting(content, data);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `2024-11-21-mike.yaml: deleted, but review 2024-11-21-mike is in the public review log (entry`,
    );
    expect(r.err).toContain(`of ${path.join(data, "log", "reviews.example_log")})`);
  });

  it("only warns of a deletion that npm start's local preview log holds: nobody else read it", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    const preview = path.join(data, "log", "localhost_4601_log");
    await keptLog(content, data, "localhost:4601/log", "localhost_4601_log");
    const r = await checkAfterDeleting(content, data);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^check: warning: .*2024-11-21-mike\.yaml: deleted, but review 2024-11-21-mike is in the review log of a local preview \(a loopback origin; entry \d+ of /m,
    );
    expect(r.err).toContain(`remove ${preview} to start it afresh`);
  });
});

/** A review file like mike's, first published after the log was kept, with its own `published_at`. */
async function addReview(content: string, id: string, publishedAt: string) {
  const text = (await readFile(path.join(content, "reviews", "2024", "2024-11-21-mike.yaml"), "utf8"))
    .replace(/^published_at: .*$/m, `published_at: "${publishedAt}"`)
    .replace(/^author: .*$/m, "author: Late L.");
  await writeFile(path.join(content, "reviews", "2024", `${id}.yaml`), text);
}

describe("a review published after others with an earlier published_at (review:new stamps the moment it makes the file)", () => {
  it("is refused by npm run check against the public log, naming file, line and field", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    await keptLog(content, data, "reviews.example/log", "reviews.example_log");
    await addReview(content, "2024-11-21-late-l", "2025-03-01T09:00:00Z");
    const out: string[] = [];
    const err: string[] = [];
    const env = { CONTENT_DIR: content, DATA_DIR: data, BASE_URL: "http://127.0.0.1:9" };
    const code = await check({ env, now: NOW, out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err.join("\n")).toContain(
      `2024-11-21-late-l.yaml: line 2: published_at: 2025-03-01T09:00:00Z is earlier than the published_at of review 2025-03-10-carlos-d (2025-03-12T17:45:00Z), which is already published`,
    );
    // Later than every review on the list, it is published.
    await addReview(content, "2024-11-21-late-l", "2025-03-12T18:00:00Z");
    expect(await check({ env, now: NOW, out: () => {}, err: () => {} })).toBe(0);
  });

  it("is refused by the build's log, which commits nothing; a review put back after a withdrawal keeps its date", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    const logDir = path.join(data, "log", "reviews.example_log");
    const { skey } = generateKeyPair("reviews.example/log");
    const kept = () => keptLog(content, data, "reviews.example/log", "reviews.example_log", skey);
    await kept();
    const before = await readFile(path.join(logDir, "checkpoint"), "utf8");
    await addReview(content, "2024-11-21-late-l", "2024-12-01T09:00:00Z");
    await expect(kept()).rejects.toThrow(
      /2024-11-21-late-l\.yaml: line 2: published_at: 2024-12-01T09:00:00Z is earlier than the published_at of review 2025-03-10-carlos-d/,
    );
    expect(await readFile(path.join(logDir, "checkpoint"), "utf8")).toBe(before);
    await rm(path.join(content, "reviews", "2024", "2024-11-21-late-l.yaml"));
    // Withdrawn, then back: logged `restored`, not refused for its older published_at.
    const mike = path.join(content, "reviews", "2024", "2024-11-21-mike.yaml");
    const original = await readFile(mike, "utf8");
    await writeFile(mike, `${original}withdrawn:\n  reason: author-request\n  date: 2026-11-26\n`);
    await kept();
    await writeFile(mike, original);
    await kept();
  });

  it("is only a warning in npm start's local preview, whose feeds nobody else reads", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    const { skey } = generateKeyPair("localhost:4601/log");
    await keptLog(content, data, "localhost:4601/log", "localhost_4601_log", skey);
    await addReview(content, "2024-11-21-late-l", "2024-12-01T09:00:00Z");
    const warned: string[] = [];
    await keptLog(content, data, "localhost:4601/log", "localhost_4601_log", skey, (l) => warned.push(l));
    expect(warned).toEqual([
      expect.stringMatching(
        /^review log of a local preview \(a loopback origin\): .*2024-11-21-late-l\.yaml: line 2: published_at: 2024-12-01T09:00:00Z is earlier/,
      ),
    ]);
  });

  it("is a warning from npm run check too for a loopback origin's log, as in that log's build", async () => {
    const content = await temp.copy(FIXTURE, "pr-check-content-");
    const data = await dir("pr-check-data-");
    await keptLog(content, data, "127.0.0.1:9/log", "127.0.0.1_9_log");
    await addReview(content, "2024-11-21-late-l", "2024-12-01T09:00:00Z");
    const err: string[] = [];
    // BASE_URL names that loopback origin explicitly: the site checked against, still a warning.
    const env = { CONTENT_DIR: content, DATA_DIR: data, BASE_URL: "http://127.0.0.1:9" };
    expect(await check({ env, now: NOW, out: () => {}, err: (l) => err.push(l) })).toBe(0);
    expect(err.join("\n")).toMatch(/^check: warning: .*2024-11-21-late-l\.yaml: line 2: published_at: /m);
  });
});
