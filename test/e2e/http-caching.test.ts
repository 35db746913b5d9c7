import { mkdir, readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeadersManifest } from "../../src/http-headers/manifest.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite, tempDistDir } from "../helpers/build-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * Two real builds into one DIST_DIR, the second after an amended review and a backfilled one (an
 * old visit date, published last), then the app on port 0 over the second: Last-Modified carried
 * over or moved forward, the feeds and the OpenAPI document as a client sees them, and the RFC 9110
 * preconditions, content negotiation, Host and CORS answers on the files.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.caching.test";
const AMENDED = { file: "reviews/2024/2024-05-17-greg-h.yaml", from: "patiently", to: "very patiently" };
const BACKFILLED = "2023-06-01-late-l";

const temp = tempFolders();
let first: HeadersManifest;
let second: HeadersManifest;
let app: TestApp;

const manifestOf = async (dist: string) =>
  JSON.parse(await readFile(path.join(dist, "_headers.json"), "utf8")) as HeadersManifest;

beforeAll(async () => {
  const content = await temp.copy(FIXTURE, "pr-caching-");
  const dist = await tempDistDir();
  temp.add(dist);
  const build = async () => {
    const b = await buildSite(content, { BASE_URL: BASE }, dist);
    if (b.code !== 0) throw new Error(`build failed:\n${b.stdout}\n${b.stderr}`);
    return manifestOf(dist);
  };
  first = await build();
  // HTTP dates have one-second resolution: the second build's changes get a later one anyway.
  const amended = path.join(content, AMENDED.file);
  await writeFile(amended, (await readFile(amended, "utf8")).replace(AMENDED.from, AMENDED.to));
  await mkdir(path.join(content, "reviews/2023"), { recursive: true });
  await writeFile(
    path.join(content, "reviews/2023", `${BACKFILLED}.yaml`),
    [
      "date: 2023-06-01",
      'published_at: "2025-03-12T20:00:00Z"',
      "rating: 4",
      "author: Lee L.",
      "text: |",
      "  Found my old invoice and wanted to say the adjustment sorted out my neck for good.",
      "source:",
      "  platform: direct",
      "verification:",
      "  method: invoice",
      "  verified_on: 2023-06-01",
      "",
    ].join("\n"),
  );
  second = await build();
  app = await startApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
}, 600_000);

afterAll(async () => {
  await app?.close();
});

const get = (p: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${app.url}${p}`, { method, headers: { "accept-encoding": "identity", ...headers } });

describe("Last-Modified across builds", () => {
  it("moves forward for what changed, and stays for what did not", () => {
    const at = (m: HeadersManifest, p: string) => Date.parse(m.files[p]?.last_modified as string);
    for (const p of ["/reviews.json", "/feed.xml", "/api/feed.json"]) {
      expect(second.files[p]?.etag, p).not.toBe(first.files[p]?.etag);
      expect(at(second, p), p).toBeGreaterThan(at(first, p));
    }
    const unchanged = Object.keys(second.files).filter((p) => first.files[p]?.etag === second.files[p]?.etag);
    expect(unchanged).toContain("/openapi.json");
    for (const p of unchanged) expect(second.files[p]?.last_modified, p).toBe(first.files[p]?.last_modified);
  });

  it("answers the amended dataset's old date with 200 and its new one with 304", async () => {
    const old = first.files["/reviews.json"]?.last_modified as string;
    const res = await get("/reviews.json", { "if-modified-since": old });
    expect(res.status).toBe(200);
    const now = res.headers.get("last-modified") as string;
    expect(Date.parse(now)).toBeGreaterThan(Date.parse(old));
    await res.body?.cancel();
    expect((await get("/reviews.json", { "if-modified-since": now })).status).toBe(304);
  });

  it("ignores an If-Modified-Since that is not an HTTP-date (year 10000)", async () => {
    for (const bad of ["Sat, 01 Jan 10000 00:00:00 GMT", "2099-01-01", "tomorrow"]) {
      const res = await get("/reviews.json", { "if-modified-since": bad });
      expect(res.status, bad).toBe(200);
      await res.body?.cancel();
    }
  });
});

describe("what a client of the second build sees", () => {
  it("keeps /openapi.json's ETag and Last-Modified when a review is added", async () => {
    const res = await get("/openapi.json");
    expect(res.headers.get("etag")).toBe(first.files["/openapi.json"]?.etag);
    expect(res.headers.get("last-modified")).toBe(first.files["/openapi.json"]?.last_modified);
    expect(((await res.json()) as { info: { version: string } }).info.version).toMatch(/^1\./);
  });

  it("puts the backfilled review at the top of both feeds", async () => {
    const json = (await (await get("/api/feed.json")).json()) as { items: { id: string }[] };
    expect(json.items[0]?.id).toContain(`review/${BACKFILLED}`);
    const atom = await (await get("/feed.xml")).text();
    expect(atom.indexOf(`review/${BACKFILLED}`)).toBeGreaterThan(0);
    expect(atom.indexOf(`review/${BACKFILLED}`)).toBeLessThan(atom.indexOf("review/2025-03-10-carlos-d"));
  });
});

describe("preconditions (RFC 9110 §13.1.1, §13.1.4, §13.2.2)", () => {
  let etag: string;
  let lastModified: string;
  beforeAll(async () => {
    const res = await get("/reviews.json");
    etag = res.headers.get("etag") as string;
    lastModified = res.headers.get("last-modified") as string;
    await res.body?.cancel();
  });
  const status = async (p: string, headers: Record<string, string>, method = "GET") => {
    const res = await get(p, headers, method);
    await res.body?.cancel();
    return res.status;
  };

  it("answers a failed If-Match with 412 in the API's error shape, on every kind of file", async () => {
    for (const p of ["/reviews.json", "/feed.xml", "/openapi.json", "/", "/log/checkpoint"]) {
      const res = await get(p, { "if-match": '"stale"' });
      expect(res.status, p).toBe(412);
      expect(((await res.json()) as { error: string }).error).toBe("precondition_failed");
      expect(res.headers.get("ratelimit"), p).not.toBeNull();
    }
    expect(await status("/reviews.json", { "if-match": '"stale"' }, "HEAD")).toBe(412);
  });

  it("passes If-Match on the current tag, in a list or as *, with strong comparison", async () => {
    expect(await status("/reviews.json", { "if-match": etag })).toBe(200);
    expect(await status("/reviews.json", { "if-match": `"x", ${etag}` })).toBe(200);
    expect(await status("/reviews.json", { "if-match": "*" })).toBe(200);
    expect(await status("/reviews.json", { "if-match": `W/${etag}` })).toBe(412);
  });

  it("answers If-Unmodified-Since before Last-Modified with 412, and ignores it under If-Match or when invalid", async () => {
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect(await status("/reviews.json", { "if-unmodified-since": before })).toBe(412);
    expect(await status("/reviews.json", { "if-unmodified-since": lastModified })).toBe(200);
    expect(await status("/reviews.json", { "if-unmodified-since": "Sat, 01 Jan 10000 00:00:00 GMT" })).toBe(200);
    expect(await status("/reviews.json", { "if-match": etag, "if-unmodified-since": before })).toBe(200);
  });

  it("evaluates If-Match before If-None-Match", async () => {
    expect(await status("/reviews.json", { "if-match": '"stale"', "if-none-match": etag })).toBe(412);
    expect(await status("/reviews.json", { "if-match": etag, "if-none-match": etag })).toBe(304);
  });

  it("revalidates with If-None-Match even when the request says Cache-Control: no-cache", async () => {
    expect(await status("/reviews.json", { "if-none-match": etag, "cache-control": "no-cache" })).toBe(304);
  });
});

describe("negotiation, Host, rate-limit headers and CORS", () => {
  it("honours q-values: br;q=0.1, gzip;q=0.9 gets gzip, on files and on search", async () => {
    for (const p of ["/reviews.json", "/api/reviews/search?limit=20"]) {
      const res = await fetch(`${app.url}${p}`, { headers: { "accept-encoding": "br;q=0.1, gzip;q=0.9" } });
      expect(res.headers.get("content-encoding"), p).toBe("gzip");
      await res.body?.cancel();
    }
    const equal = await fetch(`${app.url}/reviews.json`, { headers: { "accept-encoding": "gzip, br" } });
    expect(equal.headers.get("content-encoding")).toBe("br");
    await equal.body?.cancel();
  });

  it("answers an HTTP/1.1 request without Host with the JSON 400", async () => {
    const { port } = new URL(app.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.end("GET /reviews.json HTTP/1.1\r\n\r\n"));
      let out = "";
      socket.on("data", (d) => {
        out += d;
      });
      socket.on("end", () => resolve(out));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as { error: string; issues: { path: string }[] };
    expect(body.error).toBe("bad_request");
    expect(body.issues[0]?.path).toBe("Host");
  });

  it("sends RateLimit and RateLimit-Policy on 304 and 400 too", async () => {
    const first = await get("/api/reviews/since/2024-01-01");
    await first.body?.cancel();
    const revalidated = await get("/api/reviews/since/2024-01-01", {
      "if-none-match": first.headers.get("etag") ?? "",
    });
    const refused = await get("/api/reviews/search?rating=9");
    await refused.body?.cancel();
    for (const res of [revalidated, refused]) {
      expect(res.headers.get("ratelimit")).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
      expect(res.headers.get("ratelimit-policy")).toMatch(/^\d+;w=60$/);
    }
    expect([revalidated.status, refused.status]).toEqual([304, 400]);
  });

  it("exposes the validators, Link and the rate limit to scripts of any origin", async () => {
    const res = await get("/reviews.json", { origin: "https://app.example" });
    await res.body?.cancel();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["ETag", "Last-Modified", "Link", "RateLimit", "RateLimit-Policy"]));
  });

  it("answers a preflight with 204 and the policy, and a plain OPTIONS with the path's Allow", async () => {
    const preflight = await get(
      "/api/reviews/search",
      {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-match",
      },
      "OPTIONS",
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("If-Match");
    expect(preflight.headers.get("access-control-max-age")).toBe("86400");
    const plain = await get("/reviews.json", {}, "OPTIONS");
    expect(plain.status).toBe(204);
    expect(plain.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});
