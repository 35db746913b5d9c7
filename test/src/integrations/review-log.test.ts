import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeBundle, decodeEntry } from "../../../src/log/entries.ts";
import { buildSite, testLogKey } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * The review log as real builds write it, two builds on one LOG_DIR: a review withdrawn before it
 * was ever published, then put on the list, is counted as published on the home page.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
// Port 9 (discard): a loopback origin with no published log to continue.
const BASE = "http://127.0.0.1:9";
const MIKE = "2024-11-21-mike";
const temp = tempFolders();

describe("the review log of a build (review-log.ts)", { timeout: 600_000 }, () => {
  it("logs a review withdrawn before it was ever published, then put on the list, as published", async () => {
    const content = await temp.copy(FIXTURE, "pr-log-first-");
    const logDir = await temp.make("pr-log-dir-");
    const env = { BASE_URL: BASE, LOG_DIR: logDir, LOG_SIGNING_KEY: testLogKey(BASE).skey };
    const file = path.join(content, "reviews/2024", `${MIKE}.yaml`);
    const yaml = await readFile(file, "utf8");
    await writeFile(file, `${yaml}withdrawn:\n  reason: false-or-fake\n  date: 2026-11-20\n`);
    const first = await buildSite(content, env);
    temp.add(first.distDir);
    expect(first.code, first.stderr).toBe(0);
    await writeFile(file, yaml);
    const second = await buildSite(content, env);
    temp.add(second.distDir);
    expect(second.code, second.stderr).toBe(0);

    const bundle = await readFile(path.join(second.distDir, "log/tile/entries/000.p/9"));
    const events = decodeBundle(bundle).map((e) => decodeEntry(e));
    expect(events.filter((e) => e.id === MIKE).map((e) => e.event)).toEqual(["withdrawn", "published"]);
    const listed = JSON.parse(await readFile(path.join(second.distDir, "reviews.json"), "utf8")).reviews;
    expect(listed).toHaveLength(8);
    const home = await readFile(path.join(second.distDir, "index.html"), "utf8");
    expect(home).toContain("8 reviews have been published here; none has been withdrawn");
    const log = await readFile(path.join(second.distDir, "log/index.html"), "utf8");
    expect(log).toContain("The log has 9 entries: 8 published, 0 amended, 1 withdrawn and 0 restored.");
  });
});
