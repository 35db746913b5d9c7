import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";

/**
 * In sidecar-only mode (behind a CDN) the sidecar has no 404 page of the build to send, so it sends
 * a plain one; its link home must be the site's home, `BASE_URL`'s folder, as every built page's is.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE_URL = "https://example.org/reviews";
const built = buildBeforeAll(FIXTURE, { BASE_URL });
let app: TestApp;

beforeAll(async () => {
  app = await startApp(built.distDir, { env: { BASE_URL }, serveStatic: false });
});

afterAll(async () => {
  await app?.close();
});

describe("the sidecar's plain 404 under a BASE_URL folder", () => {
  it("links the home page in the folder, not the host's root", async () => {
    const res = await fetch(`${app.url}/no-such-page/`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<a href="/reviews/">home page</a>');
    expect(html).not.toContain('href="/"');
  });
});
