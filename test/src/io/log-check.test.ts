import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main as check } from "../../../scripts/check-content.ts";
import { reviewFields } from "../../../src/content/dataset.ts";
import { checkContentDir } from "../../../src/io/content-check.ts";
import { keyOf } from "../../../src/io/log-key.ts";
import { updateLog, withdrawalsOf } from "../../../src/io/review-log.ts";
import { generateKeyPair } from "../../../src/log/note-keys.ts";

/**
 * `npm run check` refuses a deleted logged review with no key and no LOG_DIR of its own: here the
 * log is the one `npm start` kept for another port, under DATA_DIR/log/.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const NOW = new Date("2026-11-27T00:00:00Z");
const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));
const dir = async (prefix: string) => {
  const d = await mkdtemp(path.join(os.tmpdir(), prefix));
  temp.push(d);
  return d;
};

/** The log `npm start` would keep for `origin` under DATA_DIR/log/, of `content` as it is. */
async function keptLog(content: string, data: string, origin: string, folder: string) {
  const report = await checkContentDir(content, { now: NOW });
  if (!report.ok) throw new Error(report.problems.join("\n"));
  await updateLog({
    dir: path.join(data, "log", folder),
    origin,
    key: keyOf(generateKeyPair(origin).skey, origin, "a test key"),
    config: { BASE_URL: "http://127.0.0.1:9", LOG_NEW: false, CONTENT_DIR: content },
    content: { reviews: reviewFields(report.content), withdrawn: withdrawalsOf(report.content) },
    today: "2026-11-27",
    warn: () => {},
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
    const content = await dir("pr-check-content-");
    await cp(FIXTURE, content, { recursive: true });
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
    const content = await dir("pr-check-content-");
    await cp(FIXTURE, content, { recursive: true });
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
