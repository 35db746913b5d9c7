import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildManifest,
  type HeadersManifest,
  manifestJson,
  manifestOf,
  renderHeadersFile,
} from "../../../src/http-headers/manifest.ts";
import { siteUrls } from "../../../src/urls.ts";

const BASE = "https://reviews.example";

describe("Last-Modified", () => {
  const T0 = new Date("2026-03-01T10:00:00Z");
  const files = (etags: Record<string, string>) => Object.entries(etags).map(([path, etag]) => ({ path, etag }));
  const build = (etags: Record<string, string>, builtAt: Date, previous?: HeadersManifest) =>
    manifestOf(files(etags), { urls: siteUrls(BASE), builtAt, previous });

  it("is the build's time for every file of a first build (no previous manifest)", () => {
    const m = build({ "/reviews.json": '"a"', "/openapi.json": '"b"', "/_astro/x.css": '"c"' }, T0);
    for (const h of Object.values(m.files)) expect(h.last_modified).toBe(T0.toUTCString());
  });

  it("carries over while the ETag is unchanged, and moves to the build's time when it changes", () => {
    const first = build({ "/reviews.json": '"a"', "/feed.xml": '"f"' }, T0);
    const later = new Date(T0.getTime() + 3_600_000);
    const second = build({ "/reviews.json": '"a2"', "/feed.xml": '"f"' }, later, first);
    expect(second.files["/feed.xml"]?.last_modified).toBe(T0.toUTCString());
    expect(second.files["/reviews.json"]?.last_modified).toBe(later.toUTCString());
    // The same bytes again: nothing moves, so the manifest is byte-identical.
    expect(build({ "/reviews.json": '"a2"', "/feed.xml": '"f"' }, new Date(later.getTime() + 9e6), second)).toEqual(
      second,
    );
  });

  it("moves forward even when the build's clock is behind or in the same second", () => {
    const first = build({ "/reviews.json": '"a"' }, T0);
    const behind = build({ "/reviews.json": '"b"' }, new Date(T0.getTime() - 86_400_000), first);
    expect(Date.parse(behind.files["/reviews.json"]?.last_modified as string)).toBe(T0.getTime() + 1000);
  });

  it("increases whenever the ETag changes and stays put otherwise (property)", () => {
    const step = fc.record({
      etag: fc.constantFrom('"a"', '"b"', '"c"'),
      // The build's clock may go backwards (another machine, a corrected clock).
      clockMs: fc.integer({ min: -86_400_000, max: 86_400_000 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 30 }), (steps) => {
        let previous: HeadersManifest | undefined;
        let clock = T0.getTime();
        for (const { etag, clockMs } of steps) {
          clock += clockMs;
          const next = build({ "/feed.xml": etag }, new Date(clock), previous);
          const before = previous?.files["/feed.xml"];
          const now = next.files["/feed.xml"] as { etag: string; last_modified: string };
          if (before) {
            if (before.etag === now.etag) expect(now.last_modified).toBe(before.last_modified);
            else expect(Date.parse(now.last_modified)).toBeGreaterThan(Date.parse(before.last_modified as string));
          }
          previous = next;
        }
      }),
    );
  });

  it("is absent without a build time (no clock given), and typed files keep their caching", () => {
    const manifest = buildManifest(
      [
        { path: "/openapi.json", bytes: new Uint8Array([1]) },
        { path: "/_astro/site.Bx1.css", bytes: new Uint8Array([2]) },
      ],
      { urls: siteUrls(BASE) },
    );
    expect(manifest.files["/openapi.json"]?.last_modified).toBeUndefined();
    expect(manifest.files["/_astro/site.Bx1.css"]).toMatchObject({
      content_type: "text/css; charset=utf-8",
      cache_control: "public, max-age=31536000, immutable",
    });
  });
});

describe("the review log's headers", () => {
  const files = ["/log/checkpoint", "/log/key", "/log/tile/0/000", "/log/tile/entries/001.p/7", "/log/tile/1/000.p/2"];
  const manifest = buildManifest(
    files.map((p) => ({ path: p, bytes: new TextEncoder().encode(p) })),
    { urls: siteUrls("https://reviews.example") },
  );

  it("serves the checkpoint as short-lived UTF-8 text, full tiles immutable and partial ones for a day", () => {
    expect(manifest.files["/log/checkpoint"]).toMatchObject({
      content_type: "text/plain; charset=utf-8",
      cache_control: "public, max-age=5",
    });
    expect(manifest.files["/log/key"]?.content_type).toBe("text/plain; charset=utf-8");
    expect(manifest.files["/log/tile/0/000"]).toMatchObject({
      content_type: "application/octet-stream",
      cache_control: "public, max-age=31536000, immutable",
    });
    for (const p of ["/log/tile/entries/001.p/7", "/log/tile/1/000.p/2"]) {
      expect(manifest.files[p]).toMatchObject({
        content_type: "application/octet-stream",
        cache_control: "public, max-age=86400",
      });
    }
  });

  it("gives the CDN one rule for full tiles and one for partial ones, each with its type and lifetime", () => {
    const text = renderHeadersFile(manifest);
    expect(text).toContain(
      "/log/tile/:level/:index\n  Content-Type: application/octet-stream\n  Cache-Control: public, max-age=31536000, immutable\n",
    );
    expect(text).toContain(
      "/log/tile/:level/:index/:width\n  Content-Type: application/octet-stream\n  Cache-Control: public, max-age=86400\n",
    );
    expect(text).toMatch(
      /\/log\/checkpoint\n {2}ETag: "[^"]+"\n {2}Content-Type: text\/plain; charset=utf-8\n {2}Cache-Control: public, max-age=5\n/,
    );
    expect(text).not.toContain("/log/tile/0/000\n");
  });
});

describe("the log's tile rules in _headers past tile 999 of a level (256,000 entries)", () => {
  it("never give partial tiles a full tile's year-long immutable lifetime, whichever file comes first", () => {
    // tile/0/x001/000 (a full tile, three segments) sorts before tile/1/003.p/232 (a partial one).
    const paths = ["/log/tile/0/x001/000", "/log/tile/1/003.p/232", "/log/tile/0/x001/001.p/9", "/log/tile/0/999"];
    const big = buildManifest(
      paths.map((p) => ({ path: p, bytes: new Uint8Array([1]) })),
      { urls: siteUrls("https://reviews.example") },
    );
    const text = renderHeadersFile(big);
    expect(text).toContain(
      "/log/tile/:level/:index/:width\n  Content-Type: application/octet-stream\n  Cache-Control: public, max-age=86400\n",
    );
    expect(text).toContain(
      "/log/tile/:level/:index\n  Content-Type: application/octet-stream\n  Cache-Control: public, max-age=31536000, immutable\n",
    );
    // Four segments, so no rule matches it: it has its own.
    expect(text).toMatch(
      /\/log\/tile\/0\/x001\/001\.p\/9\n {2}ETag: "[^"]+"\n {2}Content-Type: application\/octet-stream\n {2}Cache-Control: public, max-age=86400\n/,
    );
  });
});

describe("manifestJson", () => {
  const headers = fc.record(
    {
      etag: fc.string({ minLength: 1 }).map((s) => `"${s.replaceAll('"', "")}x"`),
      content_type: fc.string({ minLength: 1 }),
      cache_control: fc.string({ minLength: 1 }),
      last_modified: fc.string(),
      link: fc.string(),
    },
    { requiredKeys: ["etag", "content_type", "cache_control"] },
  );
  const manifests = fc
    .dictionary(
      fc.string().map((s) => `/${s}`),
      headers,
    )
    .map((files): HeadersManifest => ({ version: 1, files }));

  it("is the manifest's JSON.stringify(…, null, 2) and a newline, whatever the size of its pieces", () => {
    fc.assert(
      fc.property(manifests, fc.integer({ min: 1, max: 400 }), (m, size) => {
        expect([...manifestJson(m, size)].join("")).toBe(`${JSON.stringify(m, null, 2)}\n`);
      }),
    );
  });

  it("comes in pieces of about the size asked, not as one text", () => {
    const files = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `/reviews/r-${i}/index.html`,
        { etag: `"e${i}"`, content_type: "text/html", cache_control: "no-cache" },
      ]),
    );
    const pieces = [...manifestJson({ version: 1, files }, 4096)];
    expect(pieces.length).toBeGreaterThan(20);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(4096 + 200);
  });
});
