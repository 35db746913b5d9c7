import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeadersManifest } from "../../../src/http-headers/manifest.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { rawRequest } from "../../helpers/raw-http.ts";

const CONTENT = PROJECT_CONTENT;
let app: TestApp;
let manifest: HeadersManifest;

const built = buildBeforeAll(CONTENT);

beforeAll(async () => {
  manifest = JSON.parse(await readFile(path.join(built.distDir, "_headers.json"), "utf8"));
  app = await startApp(built.distDir, { env: { RATE_LIMIT_PER_MINUTE: "1000000" } });
});

afterAll(async () => {
  await app?.close();
});

const manifestBytes = (p: string) => readFileSync(path.join(built.distDir, p)).length;

const req = (p: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${app.url}${p}`, { method, headers: { "accept-encoding": "identity", ...headers } });

/** The full RFC 9110 matrix, run against any resource. */
function conditionalMatrix(name: string, target: () => string) {
  describe(`conditional GET on ${name}`, () => {
    let etag: string;
    let lastModified: string;
    beforeAll(async () => {
      const res = await req(target());
      expect(res.status).toBe(200);
      etag = res.headers.get("etag") as string;
      lastModified = res.headers.get("last-modified") as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(lastModified).toBeTruthy();
      expect(res.headers.get("cache-control")).toBeTruthy();
    });
    it("answers a matching If-None-Match with 304 and no body", async () => {
      const res = await req(target(), { "if-none-match": etag });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
    });
    it("matches within a list, with weak comparison, and for *", async () => {
      expect((await req(target(), { "if-none-match": `"nope", ${etag}` })).status).toBe(304);
      expect((await req(target(), { "if-none-match": `W/${etag}` })).status).toBe(304);
      expect((await req(target(), { "if-none-match": "*" })).status).toBe(304);
    });
    it("reads a * only as the whole field (RFC 9110 §13.1.2): '1*2' or W/* match nothing", async () => {
      for (const field of ["1*2", "W/*", '"nope"*'])
        expect((await req(target(), { "if-none-match": field })).status, field).toBe(200);
      expect((await req(target(), { "if-match": `${etag}*` })).status).toBe(412);
    });
    it("returns 200 for a different tag", async () => {
      expect((await req(target(), { "if-none-match": '"other"' })).status).toBe(200);
    });
    it("answers If-Modified-Since at or after Last-Modified with 304, before it with 200", async () => {
      expect((await req(target(), { "if-modified-since": lastModified })).status).toBe(304);
      // Later than Last-Modified but not in the future: the current second.
      const later = new Date(Math.max(Date.parse(lastModified), Math.floor(Date.now() / 1000) * 1000)).toUTCString();
      expect((await req(target(), { "if-modified-since": later })).status).toBe(304);
      const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
      expect((await req(target(), { "if-modified-since": tomorrow })).status, "a date in the future").toBe(200);
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await req(target(), { "if-modified-since": earlier })).status).toBe(200);
      expect((await req(target(), { "if-modified-since": "not a date" })).status).toBe(200);
    });
    it("lets If-None-Match take precedence over If-Modified-Since", async () => {
      const res = await req(target(), { "if-none-match": '"other"', "if-modified-since": lastModified });
      expect(res.status).toBe(200);
      const res2 = await req(target(), {
        "if-none-match": etag,
        "if-modified-since": new Date(0).toUTCString(),
      });
      expect(res2.status).toBe(304);
    });
    it("supports HEAD with the same validators and no body", async () => {
      const res = await req(target(), {}, "HEAD");
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toBe(etag);
      expect(await res.text()).toBe("");
    });
    it("gives a compressed representation its own strong ETag", async () => {
      const res = await req(target(), { "accept-encoding": "gzip" });
      expect(res.headers.get("content-encoding")).toBe("gzip");
      const gz = res.headers.get("etag") as string;
      expect(gz).not.toBe(etag);
      expect(gz).toMatch(/^"[^"]+"$/);
      expect(res.headers.get("vary")).toContain("Accept-Encoding");
      const again = await req(target(), { "accept-encoding": "gzip", "if-none-match": gz });
      expect(again.status).toBe(304);
      const br = await req(target(), { "accept-encoding": "br" });
      expect(br.headers.get("content-encoding")).toBe("br");
      expect(br.headers.get("etag")).not.toBe(gz);
    });
  });
}

conditionalMatrix("since/{date}", () => "/api/reviews/since/2026-01-01");
conditionalMatrix("/reviews.json", () => "/reviews.json");
conditionalMatrix("/feed.xml", () => "/feed.xml");

describe("since/{date}", () => {
  it("returns the reviews dated on or after the date, newest first", async () => {
    const dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
    const body = await (await req("/api/reviews/since/2026-06-01")).json();
    const expected = dataset.reviews.filter((r: { date: string }) => r.date >= "2026-06-01");
    expect(body).toEqual({ since: "2026-06-01", count: expected.length, reviews: expected });
  });
  it.each(["2024-1-5", "2024-02-30", "yesterday"])("rejects %s with a 400 naming the date", async (d) => {
    const res = await req(`/api/reviews/since/${d}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.issues[0]).toMatchObject({ path: "date", value: d });
  });
  it("keeps the ETag when only older reviews differ, since the body is the same", async () => {
    const a = (await req("/api/reviews/since/2026-11-01")).headers.get("etag");
    const b = (await req("/api/reviews/since/2026-11-01")).headers.get("etag");
    const c = (await req("/api/reviews/since/2026-10-01")).headers.get("etag");
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe("static files from the single origin", () => {
  it("serves each file with the headers the build computed", async () => {
    for (const p of ["/reviews.json", "/api/feed.json", "/feed.xml"]) {
      const res = await req(p);
      const h = manifest.files[p];
      expect(res.headers.get("etag")).toBe(h?.etag);
      expect(res.headers.get("content-type")).toBe(h?.content_type);
      expect(res.headers.get("link")).toContain('rel="hub"');
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    const home = await req("/");
    expect(home.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
  it("decompresses to the identity bytes", async () => {
    const res = await req("/reviews.json", { "accept-encoding": "gzip" });
    const raw = Buffer.from(await res.arrayBuffer());
    // fetch decodes gzip itself; either way the JSON must be the file's.
    const text =
      res.headers.get("content-encoding") === "gzip" && raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
    expect(text).toBe(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  });
  it("answers a HEAD without compressing: the coded length only once a GET has made that body", async () => {
    const head = () => req("/api/feed.json", { "accept-encoding": "zstd" }, "HEAD");
    const first = await head();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-encoding")).toBe("zstd");
    expect(first.headers.get("content-length")).toBeNull();
    expect(first.headers.get("transfer-encoding")).toBeNull();
    const get = await req("/api/feed.json", { "accept-encoding": "zstd" });
    expect(get.headers.get("etag")).toBe(first.headers.get("etag"));
    const length = get.headers.get("content-length");
    expect(Number(length)).toBeGreaterThan(0);
    expect((await head()).headers.get("content-length")).toBe(length);
    // The identity body is the file itself: its length is always known.
    const plain = await req("/api/feed.json", {}, "HEAD");
    expect(plain.headers.get("content-length")).toBe(String(manifestBytes("/api/feed.json")));
  });
  it("answers a missing path with JSON under /api and HTML elsewhere", async () => {
    const api = await req("/api/nope");
    expect(api.status).toBe(404);
    expect((await api.json()).error).toBe("not_found");
    const page = await req("/nope");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
  it("does not serve the header manifest or paths outside dist", async () => {
    expect((await req("/_headers.json")).status).toBe(404);
    expect((await req("/..%2f..%2fpackage.json")).status).toBe(404);
  });
  it("answers CORS preflight for GET", async () => {
    const res = await fetch(`${app.url}/reviews.json`, {
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
  it("refuses an over-long URL with 414, with the security headers and CORS", async () => {
    const res = await req(`/api/reviews/search?query=${"a".repeat(5000)}`, { origin: "https://example.org" });
    expect(res.status).toBe(414);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("default-src");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
  it("reads two If-Modified-Since or If-Unmodified-Since lines as a list, and ignores it (RFC 9110 §13.1.3, §13.1.4)", async () => {
    const { port } = new URL(app.url);
    const lm = (await req("/reviews.json")).headers.get("last-modified") as string;
    const old = "Sat, 01 Jan 2000 00:00:00 GMT";
    const head = `GET /reviews.json HTTP/1.1\r\nHost: localhost:${port}\r\nAccept-Encoding: identity\r\n`;
    const send = (lines: string) => rawRequest(app.url, `${head}${lines}Connection: close\r\n\r\n`);
    expect((await send(`If-Modified-Since: ${lm}\r\n`)).status).toBe(304);
    expect((await send(`If-Modified-Since: ${lm}\r\nIf-Modified-Since: ${old}\r\n`)).status).toBe(200);
    expect((await send(`If-Unmodified-Since: ${old}\r\n`)).status).toBe(412);
    expect((await send(`If-Unmodified-Since: ${old}\r\nIf-Unmodified-Since: ${lm}\r\n`)).status).toBe(200);
  });
  it("answers CONNECT with 501 in the API's shape instead of closing the connection", async () => {
    const { port } = new URL(app.url);
    for (const target of ["/reviews.json", `127.0.0.1:${port}`]) {
      const res = await rawRequest(app.url, `CONNECT ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(res.status, target).toBe(501);
      const body = JSON.parse(res.body);
      expect(body.error).toBe("not_implemented");
      expect(body.issues).toEqual([{ path: "(method)", value: "CONNECT", message: body.message }]);
    }
  });
  it("answers 400 in the API's shape to two Host lines, an empty Host or an invalid one (RFC 9112 §3.2)", async () => {
    const { port } = new URL(app.url);
    const cases: [string, unknown][] = [
      [`Host: localhost:${port}\r\nHost: evil.example\r\n`, [`localhost:${port}`, "evil.example"]],
      [`Host: localhost:${port}\r\nhost: localhost:${port}\r\n`, [`localhost:${port}`, `localhost:${port}`]],
      ["Host:\r\n", ""],
      ["Host: local host\r\n", "local host"],
      ["Host: a/b\r\n", "a/b"],
      ["", null],
    ];
    for (const [hostLines, value] of cases) {
      const res = await rawRequest(app.url, `GET /reviews.json HTTP/1.1\r\n${hostLines}Connection: close\r\n\r\n`);
      expect(res.status, hostLines).toBe(400);
      const body = JSON.parse(res.body);
      expect(Object.keys(body).sort(), hostLines).toEqual(["error", "issues", "message"]);
      expect(body.issues, hostLines).toEqual([{ path: "Host", value, message: body.message }]);
    }
    // One valid Host, a name or an IP literal, is served; so is HTTP/1.0 without one.
    for (const head of [`HTTP/1.1\r\nHost: [::1]:${port}`, `HTTP/1.1\r\nHost: localhost`, "HTTP/1.0"]) {
      const res = await rawRequest(app.url, `GET /reviews.json ${head}\r\nConnection: close\r\n\r\n`);
      expect(res.status, head).toBe(200);
    }
  });
});

describe("the probes, which have no validators", () => {
  it("answer If-None-Match: * with 304 whatever the request's Cache-Control (RFC 9110 §13.1.2)", async () => {
    for (const p of ["/healthz", "/livez"]) {
      // fetch adds `Cache-Control: no-cache` to a conditional request; the header is sent here too.
      const sent: Record<string, string>[] = [
        { "if-none-match": "*" },
        { "if-none-match": "*", "cache-control": "no-cache" },
      ];
      for (const headers of sent) {
        const res = await req(p, headers);
        expect(res.status, `${p} ${JSON.stringify(headers)}`).toBe(304);
        expect(await res.text()).toBe("");
        expect(res.headers.get("cache-control")).toBe("no-store");
      }
      for (const field of ['"a"', "W/*", "1*2"]) expect((await req(p, { "if-none-match": field })).status).toBe(200);
    }
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a client exceeds its per-minute budget, but never on /healthz", async () => {
    const limited = await startApp(built.distDir, { env: { RATE_LIMIT_PER_MINUTE: "3" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/api/reviews/since/2026-01-01`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await fetch(`${limited.url}/reviews.json`);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await res.json()).error).toBe("rate_limited");
      expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("leaves hub requests to the hub router's own limit, so none is counted twice", async () => {
    // A stand-in for the hub router: what matters here is which limiter counts the request.
    const hub = Router().post("/", (_req, res) => {
      res.status(202).end();
    });
    const limited = await startApp(built.distDir, { env: { RATE_LIMIT_PER_MINUTE: "2" }, routers: () => ({ hub }) });
    try {
      const hubStatuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        hubStatuses.push((await fetch(`${limited.url}/api/websub/hub`, { method: "POST" })).status);
      }
      expect(hubStatuses).toEqual([202, 202, 202, 202]);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${limited.url}/api/reviews/since/2026-01-01`)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
