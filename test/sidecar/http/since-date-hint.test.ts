import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";

/**
 * A since/{date} written another way than YYYY-MM-DD is told what to write, as search's since and
 * until are: the same day, the same client, one answer said how to mend it and the other did not.
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

async function dateIssue(url: string) {
  const res = await fetch(`${app.url}${url}`);
  expect(res.status).toBe(400);
  const body = (await res.json()) as { issues: { path: string; message: string }[] };
  return body.issues.find((i) => i.path === "date" || i.path === "since")?.message;
}

describe("since/{date} in another form than YYYY-MM-DD", () => {
  it.each(["2026-1-5", "2026-01-05T00:00:00Z", "Jan 5, 2026"])("%s gets search's hint", async (date) => {
    const hint = await dateIssue(`/api/reviews/since/${encodeURIComponent(date)}`);
    expect(hint).toBe("expected a date as YYYY-MM-DD — write 2026-01-05 instead");
    expect(hint).toBe(await dateIssue(`/api/reviews/search?since=${encodeURIComponent(date)}`));
  });

  it("says what a real date is when nothing can be told", async () => {
    expect(await dateIssue("/api/reviews/since/yesterday")).toBe(
      "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05",
    );
  });
});
