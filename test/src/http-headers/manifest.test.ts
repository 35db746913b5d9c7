import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRecords, lastModifiedMs } from "../../../src/content/dataset.ts";
import type { ReviewRecord } from "../../../src/content/records.ts";
import { buildManifest, renderHeadersFile } from "../../../src/http-headers/manifest.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { siteUrls } from "../../../src/urls.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
/** carlos-d's published_at, the later of the fixture's two reviews dated 2025-03-10. */
const NEWEST = "Wed, 12 Mar 2025 17:45:00 GMT";

describe("Last-Modified", () => {
  let records: ReviewRecord[];
  beforeAll(async () => {
    records = buildRecords(await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") }), BASE);
  });

  const lastModified = (reviews: ReviewRecord[]) => {
    const ms = lastModifiedMs(reviews);
    const files = [{ path: "/reviews.json", bytes: new Uint8Array() }];
    return buildManifest(files, { urls: siteUrls(BASE), lastModified: ms === undefined ? undefined : new Date(ms) })
      .files["/reviews.json"]?.last_modified;
  };

  it("moves forward when a second review is added on the same day", () => {
    expect(lastModified(records)).toBe(NEWEST);
    const sameDay = { ...(records[0] as ReviewRecord), id: "2025-03-10-zoe-p", published_at: "2025-03-12T18:30:00Z" };
    expect(lastModified([...records, sameDay])).toBe("Wed, 12 Mar 2025 18:30:00 GMT");
  });

  it("moves forward to the day of a newer owner reply", () => {
    const replied = records.map((r) =>
      r.id === "2024-02-29-dana-k" ? { ...r, response: { date: "2025-03-20", text: "Thank you, Dana." } } : r,
    );
    expect(lastModified(replied)).toBe("Thu, 20 Mar 2025 00:00:00 GMT");
  });

  it("is absent for an empty dataset and for files that do not derive from reviews", () => {
    expect(lastModified([])).toBeUndefined();
    const manifest = buildManifest(
      [
        { path: "/openapi.json", bytes: new Uint8Array([1]) },
        { path: "/_astro/site.Bx1.css", bytes: new Uint8Array([2]) },
      ],
      { urls: siteUrls(BASE), lastModified: new Date(0) },
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
