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

describe("npm run check and the review logs it finds", () => {
  it("refuses a deletion that the log of npm start on another port holds", async () => {
    const content = await dir("pr-check-content-");
    await cp(FIXTURE, content, { recursive: true });
    const data = await dir("pr-check-data-");
    const report = await checkContentDir(content, { now: NOW });
    if (!report.ok) throw new Error(report.problems.join("\n"));
    const origin = "localhost:4601/log";
    await updateLog({
      dir: path.join(data, "log", "localhost_4601_log"),
      origin,
      key: keyOf(generateKeyPair(origin).skey, origin, "a test key"),
      config: { BASE_URL: "http://127.0.0.1:9", LOG_NEW: false, CONTENT_DIR: content },
      content: { reviews: reviewFields(report.content), withdrawn: withdrawalsOf(report.content) },
      today: "2026-11-27",
      warn: () => {},
    });
    await rm(path.join(content, "reviews", "2024", "2024-11-21-mike.yaml"));
    const lines: string[] = [];
    const code = await check({
      // Port 9 (discard): nothing is published at BASE_URL; no LOG_DIR, no key.
      env: { CONTENT_DIR: content, DATA_DIR: data, BASE_URL: "http://127.0.0.1:9" },
      now: NOW,
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.join("\n")).toContain(
      `2024-11-21-mike.yaml: deleted, but review 2024-11-21-mike is in the public review log (entry`,
    );
    expect(lines.join("\n")).toContain(`of ${path.join(data, "log", "localhost_4601_log")})`);
  });
});
