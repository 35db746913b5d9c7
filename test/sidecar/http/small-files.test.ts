import { readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/**
 * A file of the build under 1 KB is sent as it is, as search and since answers are: a content
 * coding adds its own header and trailer, so `/robots.txt` (66 bytes) came back 82 bytes in gzip
 * and `/log/key` 93 instead of 73, under a Vary that split every cache's copy in two for nothing.
 */

const ALL = "br, zstd, gzip";
let app: TestApp;

const built = buildBeforeAll(PROJECT_CONTENT);

beforeAll(async () => {
  app = await startApp(built.distDir, { env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
});

afterAll(async () => {
  await app?.close();
});

describe("content coding of small files", () => {
  it("sends a file under 1 KB as it is, without Vary, whatever the client accepts", async () => {
    for (const p of ["/robots.txt", "/log/key"]) {
      const bytes = await readFile(path.join(built.distDir, p));
      expect(bytes.length, p).toBeLessThan(1024);
      // What a coding would cost: more bytes than the file itself.
      expect(gzipSync(bytes).length, p).toBeGreaterThan(bytes.length);
      for (const method of ["GET", "HEAD"]) {
        const res = await fetch(`${app.url}${p}`, { method, headers: { "accept-encoding": ALL } });
        expect(res.status, p).toBe(200);
        expect(res.headers.get("content-encoding"), `${method} ${p}`).toBeNull();
        expect(res.headers.get("vary") ?? "", `${method} ${p}`).not.toContain("Accept-Encoding");
        expect(res.headers.get("content-length"), `${method} ${p}`).toBe(String(bytes.length));
      }
      const res = await fetch(`${app.url}${p}`, { headers: { "accept-encoding": ALL } });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes), p).toBe(true);
    }
  });

  it("still compresses a larger file for a client that accepts it", async () => {
    const bytes = await readFile(path.join(built.distDir, "reviews.json"));
    expect(brotliCompressSync(bytes).length).toBeLessThan(bytes.length);
    const res = await fetch(`${app.url}/reviews.json`, { headers: { "accept-encoding": ALL } });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
  });
});
