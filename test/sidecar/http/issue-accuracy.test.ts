import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * A 400 names every wrong parameter, and only wrong ones (docs/api.md: "answers the rest with a 400
 * whose `issues` name every wrong parameter"): a refusal that leaves one out sends the client back
 * twice, and one that blames a right parameter sends it looking for a mistake it did not make.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let dist: string | undefined;
let app: McpTestApp;

beforeAll(async () => {
  const build = await buildSite(FIXTURE, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startMcpApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
}, 600_000);

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

type Issue = { path: string; value: unknown; message: string };

async function issues(target: string): Promise<Issue[]> {
  const res = await fetch(`${app.url}${target}`);
  expect(res.status).toBe(400);
  return ((await res.json()) as { issues: Issue[] }).issues;
}

describe("since/{date} with a date that does not decode", () => {
  it.each([
    ["%zz", "not valid percent-encoding"],
    ["%E9", "not valid UTF-8"],
  ])("since/%s?limit=3 names the query parameter as well as the date", async (date, why) => {
    expect(await issues(`/api/reviews/since/${date}?limit=3&x=1`)).toEqual([
      { path: "date", value: expect.any(String), message: expect.stringContaining(why) },
      { path: "limit", value: "3", message: "unknown parameter; since takes no query parameters" },
      { path: "x", value: "1", message: "unknown parameter; since takes no query parameters" },
    ]);
  });
});
