import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeadersManifest } from "../../src/http-headers/manifest.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite } from "../helpers/build-site.ts";
import { freePort } from "../helpers/free-port.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";

/**
 * A review page has three addresses (`/reviews/<id>/`, `/reviews/<id>` and the file's own,
 * `/reviews/<id>/index.html`), and both doors, the sidecar and deploy/nginx.conf, serve a live
 * review at each. Once the review is withdrawn, each must answer 410 with the page saying why: a
 * 404 at one of them reads as "never existed" to a crawler or a link checker.
 */

const MIKE = "2024-11-21-mike";
const CARLOS = "2025-03-10-carlos-d";
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
/** `%65` is `e` and `%2E` is `.`: a percent-encoded unreserved character names the same URI (RFC 3986 §6.2.2.2). */
const GONE = [
  `/reviews/${MIKE}/`,
  `/reviews/${MIKE}`,
  `/reviews/${MIKE}/index.html`,
  "/reviews/2024-11-21-mik%65/",
  `/reviews/${MIKE}/index%2Ehtml`,
];
const LIVE = [`/reviews/${CARLOS}/`, `/reviews/${CARLOS}/index.html`, "/reviews/2025-03-10-carlos-%64/"];

let content: string;
let dist: string;
let app: TestApp;
let nginx: RunningNginx | undefined;
/** The Cache-Control the build gives the withdrawal page, which its 410s must carry too. */
let pageCacheControl: string;

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-withdrawn-addresses-"));
  await cp(FIXTURE, content, { recursive: true });
  const mike = path.join(content, "reviews/2024", `${MIKE}.yaml`);
  await writeFile(mike, `${await readFile(mike, "utf8")}withdrawn:\n  reason: author-request\n  date: 2026-11-20\n`);
  const built = await buildSite(content, { BASE_URL: "https://reviews.example" });
  expect(built.code, built.stderr).toBe(0);
  dist = built.distDir;
  const manifest = JSON.parse(await readFile(path.join(dist, "_headers.json"), "utf8")) as HeadersManifest;
  pageCacheControl = manifest.files[`/withdrawn/${MIKE}/index.html`]?.cache_control ?? "";
  expect(pageCacheControl).toMatch(/max-age=\d+/);
  app = await startApp(dist, { env: { BASE_URL: "https://reviews.example" } });
  if (!nginxUnavailable()) nginx = await startNginx({ port: await freePort(), upstreams: [9, 9], distDir: dist });
});

afterAll(async () => {
  await nginx?.stop();
  await app?.close();
  await Promise.all([content, dist].map((d) => d && rm(d, { recursive: true, force: true })));
});

const doors = () => [["the sidecar", app.url], ...(nginx ? [["deploy/nginx.conf", nginx.url]] : [])];

describe("a withdrawn review's addresses", () => {
  it("answer 410 with the withdrawal page at every address of the page, from both doors", async () => {
    for (const [door, url] of doors()) {
      for (const p of GONE) {
        const res = await fetch(`${url}${p}`, { redirect: "manual" });
        expect(res.status, `${door} ${p}`).toBe(410);
        expect(res.headers.get("content-type"), `${door} ${p}`).toMatch(/^text\/html/);
        expect(await res.text(), `${door} ${p}`).toContain("This review was withdrawn");
        // A 410 is cacheable by heuristics (RFC 9111 §4.2.2): without a lifetime of its own, a
        // cache may keep it long after the review is restored.
        expect(res.headers.get("cache-control"), `${door} ${p}`).toBe(pageCacheControl);
        const head = await fetch(`${url}${p}`, { method: "HEAD", redirect: "manual" });
        expect(head.status, `${door} HEAD ${p}`).toBe(410);
      }
    }
  });

  it("leave a live review's addresses as they are", async () => {
    for (const [door, url] of doors()) {
      for (const p of LIVE) {
        const res = await fetch(`${url}${p}`, { redirect: "manual" });
        expect(res.status, `${door} ${p}`).toBe(200);
        expect(await res.text(), `${door} ${p}`).not.toContain("This review was withdrawn");
      }
      expect((await fetch(`${url}/reviews/2020-01-01-nobody/index.html`)).status, door).toBe(404);
    }
  });
});
