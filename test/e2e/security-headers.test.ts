import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cspHeaderValue, SECURITY_HEADERS } from "../../src/http-headers/security.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite } from "../helpers/build-site.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
/** Home, a month page and an address that does not exist (the 404 page). */
const PAGES = ["/", "/reviews/2025/03/", "/no-such-page"] as const;

let dist: string;
let app: TestApp;
beforeAll(async () => {
  const result = await buildSite(FIXTURE);
  if (result.code !== 0) throw new Error(`fixture build failed:\n${result.stdout}\n${result.stderr}`);
  dist = result.distDir;
  app = await startApp(dist);
});
afterAll(async () => {
  await app?.close();
  await rm(dist, { recursive: true, force: true });
});

/**
 * The headers a Netlify/Cloudflare-style host sends for `urlPath` from `_headers`: every rule that
 * matches (exact path or `prefix*` splat) contributes, and a header named by two rules is joined
 * with ", " as those hosts do. A missing page is served as /404.html.
 */
function headersFromFile(text: string, urlPath: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of text.trimEnd().split("\n\n")) {
    const [rule = "", ...lines] = block.split("\n");
    const matches = rule.endsWith("*") ? urlPath.startsWith(rule.slice(0, -1)) : rule === urlPath;
    if (!matches) continue;
    for (const line of lines) {
      const m = /^ {2}([A-Za-z-]+): (.*)$/.exec(line);
      if (!m) throw new Error(`bad _headers line: ${line}`);
      const [name, value] = [m[1] as string, m[2] as string];
      out.set(name, out.has(name) ? `${out.get(name)}, ${value}` : value);
    }
  }
  return out;
}

describe("security headers", () => {
  it("are a strict policy for pages that run no script", () => {
    expect(cspHeaderValue()).toBe(
      "default-src 'none';style-src 'self';img-src 'self';base-uri 'none';form-action 'none';frame-ancestors 'none'",
    );
    expect(SECURITY_HEADERS["X-Frame-Options"]).toBe("DENY");
    expect(SECURITY_HEADERS["Strict-Transport-Security"]).toBeUndefined();
  });

  it.each(PAGES)("are sent by the server (helmet) on %s, and nothing else of helmet's", async (page) => {
    const res = await fetch(`${app.url}${page}`);
    expect(res.status).toBe(page === "/no-such-page" ? 404 : 200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
    for (const absent of ["strict-transport-security", "x-xss-protection", "x-powered-by", "origin-agent-cluster"]) {
      expect(res.headers.get(absent), absent).toBeNull();
    }
  });

  it.each(PAGES)("are in dist/_headers for %s, each once", async (page) => {
    const text = await readFile(path.join(dist, "_headers"), "utf8");
    const served = page === "/no-such-page" ? "/404.html" : page;
    const headers = headersFromFile(text, served);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers.get(name), name).toBe(value);
    expect(headers.get("Cache-Control")).toMatch(/^public, max-age=/);
  });

  it("serve the built 404 page in the site's chrome, never cached", async () => {
    const res = await fetch(`${app.url}/no-such-page`);
    const html = await res.text();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(html).toBe(await readFile(path.join(dist, "404.html"), "utf8"));
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<a href="\/"[^>]*>Home page of /);
    const api = await fetch(`${app.url}/api/nothing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: "not_found" });
  });

  it("serve /favicon.ico as an icon and the SVG icon the pages link to", async () => {
    const ico = await fetch(`${app.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get("content-type")).toBe("image/x-icon");
    const bytes = new Uint8Array(await ico.arrayBuffer());
    expect([...bytes.slice(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    const home = await (await fetch(`${app.url}/`)).text();
    expect(home).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const svg = await fetch(`${app.url}/favicon.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
