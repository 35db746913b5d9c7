import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * Cloudflare Pages reads at most 100 rules of `_headers` and ignores the rest. Withdrawals have no
 * bound: each withdrawn review has a page of its own (`/withdrawn/<id>/`, the body of its 410), so
 * a rule per page let the count grow with them past 100, and the rules written last (the shared
 * ones for the review and month pages, the assets and the log's tiles) were the ones lost.
 */

const WITHDRAWALS = 25;
let content: string;
let dist: string;
let rules: string[];
let withdrawn: string[];

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-headers-rules-"));
  await cp(PROJECT_CONTENT, content, { recursive: true });
  // Reviews the editorial insights (FAQ, summary) do not cite, so withdrawing them is valid.
  let insights = "";
  for (const f of await readdir(path.join(content, "insights"), { recursive: true, withFileTypes: true }))
    if (f.isFile()) insights += await readFile(path.join(f.parentPath, f.name), "utf8");
  const files = (await readdir(path.join(content, "reviews"), { recursive: true }))
    .filter((f) => f.endsWith(".yaml") && !insights.includes(path.basename(f, ".yaml")))
    .sort()
    .slice(0, WITHDRAWALS);
  expect(files).toHaveLength(WITHDRAWALS);
  for (const f of files) {
    const file = path.join(content, "reviews", f);
    await writeFile(file, `${await readFile(file, "utf8")}withdrawn:\n  reason: author-request\n  date: 2026-11-20\n`);
  }
  const built = await buildSite(content, { BASE_URL: "https://reviews.example" });
  expect(built.code, built.stderr).toBe(0);
  dist = built.distDir;
  rules = (await readFile(path.join(dist, "_headers"), "utf8")).split("\n").filter((l) => /^\S/.test(l));
  withdrawn = await readdir(path.join(dist, "withdrawn"));
});

afterAll(async () => {
  await Promise.all([content, dist].map((d) => d && rm(d, { recursive: true, force: true })));
});

describe("_headers with many withdrawn reviews", () => {
  it("stays within Cloudflare Pages' 100 rules, the shared rules for pages, assets and tiles included", () => {
    expect(withdrawn).toHaveLength(WITHDRAWALS);
    expect(rules.length).toBeLessThanOrEqual(100);
    expect(rules).toEqual(expect.arrayContaining(["/reviews/*", "/insights/*", "/_astro/*", "/withdrawn/*"]));
  });
});
