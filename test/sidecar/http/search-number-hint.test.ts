import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";

/**
 * A number in the query string is a JSON number literal (docs/api.md): `limit=010` is refused, and
 * the refusal says how to write it, since 10 is in the range the message states.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
let dist: string | undefined;
let app: TestApp;

beforeAll(async () => {
  const build = await buildSite(FIXTURE, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
}, 600_000);

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function issues(query: string) {
  const res = await fetch(`${app.url}/api/reviews/search?${query}`);
  expect(res.status).toBe(400);
  return ((await res.json()) as { issues: { path: string; value: unknown; message: string }[] }).issues;
}

describe("a search number written as no JSON number", () => {
  it.each([
    ["limit", "010", 'expected an integer from 1 to 100, written as a JSON number: 10, not "010"'],
    ["offset", "0x10", 'expected an integer from 0 to 9007199254740991, written as a JSON number: 16, not "0x10"'],
    ["rating", "5.", 'expected an integer from 1 to 5, written as a JSON number: 5, not "5."'],
    ["min_rating", "04.5", 'expected a number from 1 to 5, written as a JSON number: 4.5, not "04.5"'],
  ])("%s=%s is told how to write it", async (name, value, message) => {
    expect(await issues(`${name}=${encodeURIComponent(value)}`)).toEqual([{ path: name, value, message }]);
  });

  it("keeps the plain message for text that is no number at all, and for a number out of range", async () => {
    expect((await issues("limit=ten"))[0]?.message).toBe("expected an integer from 1 to 100");
    expect((await issues("limit=101"))[0]?.message).toBe("expected an integer from 1 to 100");
  });
});
