import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheControlFor, contentTypeFor, topicLink } from "../../src/http-headers/manifest.ts";
import { SECURITY_HEADERS } from "../../src/http-headers/security.ts";
import { siteUrls, TOPIC_PATHS } from "../../src/urls.ts";
import { freePort } from "../helpers/free-port.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";

/**
 * deploy/nginx.conf serves the build's files (not the log, nginx-log-headers.test.ts) with the
 * headers the build's manifest gives them. A few files laid out like a build are enough: no build,
 * no upstream. Each entry: the URL asked for, and the manifest key of the file it serves.
 */

const NGINX = nginxUnavailable();
const FILES: [url: string, file: string][] = [
  ["/", "/index.html"],
  ["/reviews.json", "/reviews.json"],
  ["/insights.json", "/insights.json"],
  ["/openapi.json", "/openapi.json"],
  ["/api/feed.json", "/api/feed.json"],
  ["/feed.xml", "/feed.xml"],
  ["/sitemap.xml", "/sitemap.xml"],
  ["/robots.txt", "/robots.txt"],
  ["/reviews/2026-01-01-a/", "/reviews/2026-01-01-a/index.html"],
  ["/reviews/2026/01/", "/reviews/2026/01/index.html"],
  ["/insights/care/", "/insights/care/index.html"],
  ["/_astro/site.Bx1c2d3e.css", "/_astro/site.Bx1c2d3e.css"],
  ["/log/key", "/log/key"],
  ["/log/verifier/src/log/note.ts.txt", "/log/verifier/src/log/note.ts.txt"],
];

describe.skipIf(NGINX)("deploy/nginx.conf and the build's files", () => {
  let dist: string;
  let nginx: RunningNginx;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), "pr-nginx-site-"));
    for (const [, f] of FILES) {
      await mkdir(path.dirname(path.join(dist, f)), { recursive: true });
      await writeFile(path.join(dist, f), "x\n");
    }
    // Port 9 (discard): these files are served from disk alone.
    nginx = await startNginx({ port: await freePort(), upstreams: [9, 9], distDir: dist });
  });

  afterAll(async () => {
    await nginx?.stop();
    await rm(dist, { recursive: true, force: true });
  });

  // Without Cache-Control a cache may keep a file by heuristic (RFC 9111 §4.2.2): typically a tenth
  // of its age, so a review page a year old would be kept weeks after it was amended or withdrawn.
  it.each(FILES)("serves %s with the manifest's Cache-Control", async (url, file) => {
    const res = await fetch(`${nginx.url}${url}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(cacheControlFor(file));
  });

  // The build's text is UTF-8 (the verifier's sources served under /log/verifier/ hold "§" and
  // "—"): text/plain without a charset is US-ASCII (RFC 2046 §4.1.2), which a browser shows garbled.
  it.each(FILES)("serves %s with the manifest's Content-Type", async (url, file) => {
    const res = await fetch(`${nginx.url}${url}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentTypeFor(file));
  });

  // WebSub §4: the answer to a topic MUST carry Link rel="hub" and rel="self", the only way to
  // discover the hub of /reviews.json; RFC 4287 §7 names Atom's type, which nginx calls text/xml.
  it.each(TOPIC_PATHS)("serves the topic %s with the manifest's Content-Type and WebSub Link", async (topic) => {
    const res = await fetch(`${nginx.url}${topic}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(contentTypeFor(topic));
    expect(res.headers.get("link")).toBe(topicLink(siteUrls(nginx.url), topic));
    expect(res.headers.get("cache-control")).toBe(cacheControlFor(topic));
  });

  // docs/api.md: every GET answers Access-Control-Allow-Origin: *, as the sidecar and `_headers`
  // do; without it a page on another origin cannot read the dataset, the feeds or the log.
  it("lets scripts of any origin read every file, the log's and a 404 included", async () => {
    const urls = [...FILES.map(([url]) => url), "/log/checkpoint", "/log/tile/0/000", "/log/tile/0/001.p/7"];
    urls.push("/log/tile/entries/000", "/log/tile/entries/001.p/7", "/nowhere.json");
    for (const f of urls.slice(FILES.length, -1)) {
      await mkdir(path.dirname(path.join(dist, f)), { recursive: true });
      await writeFile(path.join(dist, f), "x\n");
    }
    for (const url of urls) {
      const res = await fetch(`${nginx.url}${url}`, { headers: { origin: "https://app.example" } });
      await res.arrayBuffer();
      expect(res.status, url).toBe(url === "/nowhere.json" ? 404 : 200);
      expect(res.headers.get("access-control-allow-origin"), url).toBe("*");
    }
  });

  // The sidecar answers an unknown page with the build's 404 page (links back, the site's chrome),
  // never kept by a cache; nginx's own bare page had neither, under the review pages too.
  it("answers an unknown page with the build's 404 page and no-store", async () => {
    const page = "<!doctype html><title>Not found</title><p>our own 404 page</p>\n";
    await writeFile(path.join(dist, "404.html"), page);
    for (const url of ["/nowhere/", "/reviews/2026-01-01-nobody/", "/insights/nothing/"]) {
      const res = await fetch(`${nginx.url}${url}`);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).toBe(page);
      expect(res.headers.get("content-type"), url).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control"), url).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin"), url).toBe("*");
    }
  });

  // docs/site.md: the pages show customers' text, and the policy keeps injected markup from running
  // script, loading or framing anything, whichever door serves them (the sidecar through helmet, a
  // CDN from _headers' `/*` rule); a 404 and a withdrawn review's 410 carry them too.
  it("sends the security headers on every file, the 404 and 410 pages included", async () => {
    await writeFile(path.join(dist, "404.html"), "<!doctype html><title>Not found</title>\n");
    await mkdir(path.join(dist, "withdrawn/2026-01-01-gone"), { recursive: true });
    await writeFile(path.join(dist, "withdrawn/2026-01-01-gone/index.html"), "<!doctype html><title>Gone</title>\n");
    const answers: [string, number][] = [
      ...FILES.map(([url]): [string, number] => [url, 200]),
      ["/nowhere/", 404],
      ["/reviews/2026-01-01-gone/", 410],
    ];
    for (const [url, status] of answers) {
      const res = await fetch(`${nginx.url}${url}`);
      await res.arrayBuffer();
      expect(res.status, url).toBe(status);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(res.headers.get(name), `${url} ${name}`).toBe(value);
    }
  });

  // Debian's stock nginx.conf turns gzip on for text/html without gzip_vary: a compressed page with
  // no Vary, which a shared cache in front may then hand to a client that never asked for gzip.
  it("names Accept-Encoding in Vary on every answer nginx compresses", async () => {
    const page = "<!doctype html><title>a page</title>".padEnd(4096, " ");
    await writeFile(path.join(dist, "index.html"), page);
    const res = await fetch(`${nginx.url}/`, { headers: { "accept-encoding": "gzip" } });
    expect(await res.text()).toBe(page);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary") ?? "").toMatch(/\bAccept-Encoding\b/i);
  });

  // RFC 9110 §15.5.6: a 405 MUST carry Allow. And a script that revalidates with If-None-Match
  // (no CORS-safelisted header) sends a preflight first, which nginx's static handler refused.
  it.each(["/reviews.json", "/feed.xml", "/reviews/2026-01-01-a/", "/log/checkpoint", "/log/key"])(
    "answers other methods on %s with 405 and Allow, and OPTIONS and a preflight with 204",
    async (url) => {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const res = await fetch(`${nginx.url}${url}`, { method });
        await res.arrayBuffer();
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow"), method).toBe("GET, HEAD, OPTIONS");
      }
      const plain = await fetch(`${nginx.url}${url}`, { method: "OPTIONS" });
      expect(plain.status).toBe(204);
      expect(plain.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      const headers = {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      };
      const preflight = await fetch(`${nginx.url}${url}`, { method: "OPTIONS", headers });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
      expect(preflight.headers.get("access-control-allow-headers")).toMatch(/\bIf-None-Match\b/i);
    },
  );

  // The 405 and OPTIONS answers come from their own location, which inherits none of the files'
  // headers: they must still say nosniff, frame nothing and allow nothing, as the sidecar's do.
  it.each(["/reviews.json", "/reviews/2026-01-01-a/", "/log/checkpoint"])(
    "sends the security headers on a 405, an OPTIONS and a preflight to %s",
    async (url) => {
      const preflight = {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      };
      const asks: [string, Record<string, string>, number][] = [
        ["POST", {}, 405],
        ["DELETE", {}, 405],
        ["OPTIONS", {}, 204],
        ["OPTIONS", preflight, 204],
      ];
      for (const [method, headers, status] of asks) {
        const res = await fetch(`${nginx.url}${url}`, { method, headers });
        await res.arrayBuffer();
        expect(res.status, method).toBe(status);
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(res.headers.get(name), `${method} ${name}`).toBe(value);
        expect(res.headers.get("access-control-allow-origin"), method).toBe("*");
        expect(res.headers.has("access-control-max-age"), method).toBe(method === "OPTIONS");
      }
    },
  );
});
