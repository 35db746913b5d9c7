import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheControlFor, contentTypeFor } from "../../src/http-headers/manifest.ts";
import { freePort } from "../helpers/free-port.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";

/**
 * deploy/nginx.conf serves the review log with the headers the build's manifest gives it
 * (c2sp.org/tlog-tiles: the checkpoint `text/plain; charset=utf-8`, briefly cached; full tiles
 * immutable). A few files laid out like a build's `log/` are enough: no build, no upstream.
 */

const NGINX = nginxUnavailable();
const FILES = [
  "/log/checkpoint",
  "/log/key",
  "/log/tile/0/000",
  "/log/tile/0/001.p/7",
  "/log/tile/1/000.p/1",
  "/log/tile/entries/000",
  "/log/tile/entries/001.p/7",
];

describe.skipIf(NGINX)("deploy/nginx.conf and the review log", () => {
  let dist: string;
  let nginx: RunningNginx;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "pr-nginx-log-"));
    await writeFile(path.join(dist, "index.html"), "<!doctype html><title>home</title>");
    for (const f of FILES) {
      await mkdir(path.dirname(path.join(dist, f)), { recursive: true });
      await writeFile(path.join(dist, f), f.endsWith("checkpoint") || f.endsWith("key") ? "text\n" : "\u0000\u0001");
    }
    // Port 9 (discard): the log is served from the files alone.
    nginx = await startNginx({ port: await freePort(), upstreams: [9, 9], distDir: dist });
  });

  afterAll(async () => {
    await nginx?.stop();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(FILES)("serves %s with the manifest's Content-Type and Cache-Control", async (file) => {
    const res = await fetch(`${nginx.url}${file}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentTypeFor(file));
    expect(res.headers.get("cache-control")).toBe(cacheControlFor(file));
  });

  it("compresses entry bundles, full and partial, keeping their type and caching (tlog-tiles: SHOULD)", async () => {
    const entry = '{"event":"published","id":"2026-01-01-a","logged":"2026-01-02","commitment":"x"}';
    for (const f of ["/log/tile/entries/002", "/log/tile/entries/003.p/9"]) {
      await mkdir(path.dirname(path.join(dist, f)), { recursive: true });
      await writeFile(path.join(dist, f), `\u0000O${entry}`.repeat(20));
      const res = await fetch(`${nginx.url}${f}`, { headers: { "accept-encoding": "gzip" } });
      expect(await res.text()).toBe(`\u0000O${entry}`.repeat(20));
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(res.headers.get("content-type")).toBe(contentTypeFor(f));
      expect(res.headers.get("cache-control")).toBe(cacheControlFor(f));
    }
  });

  it("names the checkpoint's type and caching exactly as tlog-tiles and docs/log.md say", async () => {
    const res = await fetch(`${nginx.url}/log/checkpoint`);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=5");
    const missing = await fetch(`${nginx.url}/log/tile/0/999`);
    expect(missing.status).toBe(404);
  });
});
