import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroCacheDir, runAstroBuild } from "../../src/build/astro-build.ts";
import { freshLogEnv, tempDistDir } from "../helpers/build-site.ts";

/**
 * A rebuild in place (`npm run build` into the same DIST_DIR) removes the pages that are no longer
 * a route's output and the folders they leave empty (docs/site.md, "The output folder between
 * builds"), so the folder is what a cold build writes: a folder left behind still names the gone
 * page's address, which a server that lists folders answers with an empty listing, not a 404.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE_URL = "https://reviews.example";
let content: string;
let dist: string;

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-pruned-"));
  await cp(FIXTURE, content, { recursive: true });
  dist = await tempDistDir("pr-pruned-dist-");
});

afterAll(async () => {
  await Promise.all([content, dist, astroCacheDir(dist)].map((d) => rm(d, { recursive: true, force: true })));
});

async function build(): Promise<void> {
  const result = await runAstroBuild({
    distDir: dist,
    contentDir: content,
    // A new review log each build, so removing a review's file is a content change like any other.
    env: { ...process.env, BASE_URL, HUB_URL: "off", ...(await freshLogEnv(BASE_URL)) },
    output: "capture",
    lock: true,
  });
  expect(result.code, result.stdout).toBe(0);
}

/** Every folder below `dir` that holds nothing. */
async function emptyFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const empty: string[] = [];
  for (const e of entries.filter((x) => x.isDirectory())) {
    const folder = path.join(e.parentPath, e.name);
    if ((await readdir(folder)).length === 0) empty.push(path.relative(dir, folder));
  }
  return empty.sort();
}

describe("a rebuild in place", { timeout: 300_000 }, () => {
  it("leaves no folder of a page that went: the review's, its month's, its evidence lists'", async () => {
    await build();
    const before = await readdir(path.join(dist, "reviews"));
    expect(before).toContain("2024-02-29-dana-k");
    // The only review of February 2024: its page and its month's page both go.
    await rm(path.join(content, "reviews", "2024", "2024-02-29-dana-k.yaml"));
    await build();
    expect(await emptyFolders(dist)).toEqual([]);
    const after = await readdir(path.join(dist, "reviews"));
    expect(after).not.toContain("2024-02-29-dana-k");
    expect(await readdir(path.join(dist, "reviews", "2024"))).not.toContain("02");
  });
});
