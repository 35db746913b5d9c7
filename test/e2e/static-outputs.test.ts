import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { extractFromJson, extractFromXml } from "@extractus/feed-extractor";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewRecord, ReviewsDataset } from "../../src/content/records.ts";
import { type HeadersManifest, splatFor, splatIsTyped } from "../../src/http-headers/manifest.ts";
import { readDistFiles } from "../../src/io/dist-files.ts";
import { buildSite } from "../helpers/build-site.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.example";
const TAG = "tag:willowcreekchiro.example,2026:";
const TOPICS = ["/api/feed.json", "/feed.xml", "/reviews.json"];
/** Fixture ids newest first: date descending, then id ascending for the 2025-03-10 pair. */
const NEWEST_FIRST = [
  "2025-03-10-carlos-d",
  "2025-03-10-lauren-m",
  "2025-02-06-rt",
  "2025-01-14-heather-w",
  "2024-11-21-mike",
  "2024-09-03-priya-s",
  "2024-05-17-greg-h",
  "2024-02-29-dana-k",
];
/** carlos-d's published_at: later than lauren-m's on the same day and than every reply date. */
const NEWEST_PUBLISHED = "2025-03-12T17:45:00Z";

/** What one real build of the fixture publishes: the three WebSub topics and their headers. */
let dist: string;
let dataset: ReviewsDataset;
beforeAll(async () => {
  const result = await buildSite(FIXTURE, { BASE_URL: BASE });
  if (result.code !== 0) throw new Error(`fixture build failed:\n${result.stdout}\n${result.stderr}`);
  dist = result.distDir;
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
});
afterAll(() => rm(dist, { recursive: true, force: true }));

const read = (file: string) => readFile(path.join(dist, file), "utf8");

/** `_headers`: blocks separated by a blank line, a URL path, then indented `Name: value` lines. */
function parseHeadersFile(text: string): Map<string, Map<string, string>> {
  const blocks = new Map<string, Map<string, string>>();
  for (const block of text.trimEnd().split("\n\n")) {
    const [url = "", ...lines] = block.split("\n");
    expect(url).toMatch(/^\/\S*$/);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const m = /^ {2}([A-Za-z-]+): (\S.*)$/.exec(line);
      expect(m, line).not.toBeNull();
      if (m) headers.set(m[1] as string, m[2] as string);
    }
    blocks.set(url, headers);
  }
  return blocks;
}
const record = (id: string) => dataset.reviews.find((r) => r.id === id) as ReviewRecord;

describe("reviews.json", () => {
  it("lists every review newest first with its permalink and the hand-counted aggregate", () => {
    expect(dataset.reviews.map((r) => r.id)).toEqual(NEWEST_FIRST);
    expect(record("2024-02-29-dana-k").url).toBe(`${BASE}/reviews/2024-02-29-dana-k/`);
    expect(dataset.aggregate_rating).toMatchObject({ rating_value: 3.63, review_count: 8 });
    expect(dataset.business.name).toBe("Willow Creek Chiropractic & Wellness");
  });

  it("is written as JSON.stringify(dataset, null, 2) and a newline, byte for byte", async () => {
    // The build writes it in pieces (src/integrations/reviews-json.ts); this is the format it had
    // as one JSON.stringify, which parsing and re-serialising (key order kept) gives back.
    const raw = await read("reviews.json");
    expect(raw).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
  });
});

describe("/api/feed.json", () => {
  let feed: Record<string, unknown> & { items: Record<string, unknown>[] };
  beforeAll(async () => {
    feed = JSON.parse(await read("api/feed.json"));
  });

  it("parses with an independent JSON Feed reader", async () => {
    const parsed = extractFromJson(await read("api/feed.json"), { descriptionMaxLen: 0 });
    expect(parsed.title).toBe("Willow Creek Chiropractic & Wellness: verified reviews");
    expect(parsed.link).toBe(`${BASE}/`);
    expect(parsed.language).toBe("en-US");
    expect(parsed.entries?.map((e) => e.id)).toEqual(NEWEST_FIRST.map((id) => `${TAG}review/${id}`));
    expect(parsed.entries?.[0]).toMatchObject({ title: "Back on the trail", published: "2025-03-12T17:45:00.000Z" });
  });

  it("carries the JSON Feed 1.1 top-level fields, with authors and hubs rather than author", () => {
    expect(feed).toMatchObject({
      version: "https://jsonfeed.org/version/1.1",
      home_page_url: `${BASE}/`,
      feed_url: `${BASE}/api/feed.json`,
      language: "en-US",
      // Serialised as the Atom feed's author <uri> is (WHATWG URL), so a root URL gains its slash.
      authors: [{ name: "Willow Creek Chiropractic & Wellness", url: "https://willowcreekchiro.example/" }],
      hubs: [{ type: "WebSub", url: `${BASE}/api/websub/hub` }],
    });
    expect(feed.description).toEqual(expect.any(String));
    expect(feed).not.toHaveProperty("author");
  });

  it("gives each item a stable id, permalink, text, date, authors and the _review extension", () => {
    const greg = feed.items.find((i) => i.id === `${TAG}review/2024-05-17-greg-h`);
    expect(greg).toMatchObject({
      url: `${BASE}/reviews/2024-05-17-greg-h/`,
      title: "Good care, confusing bill",
      date_published: "2024-05-18T19:02:00Z",
      authors: [{ name: "Greg H." }],
      _review: { rating: 2, technicians: ["tom-lindqvist"], services: ["corrective-exercise", "x-ray"] },
    });
    expect(greg?.content_text).toContain(record("2024-05-17-greg-h").text);
    expect(greg?.content_text).toContain("written estimate before any imaging");
    expect(greg).not.toHaveProperty("author");
    // A review without a title still gets one.
    const priya = feed.items.find((i) => i.id === `${TAG}review/2024-09-03-priya-s`);
    expect(priya?.title).toBe("4-star review by Priya S.");
  });

  it("gives every item's _review the log_index and log_nonce of its record in reviews.json", () => {
    expect(feed.items).toHaveLength(NEWEST_FIRST.length);
    for (const item of feed.items) {
      const r = record(String(item.id).slice(`${TAG}review/`.length));
      expect(item._review).toMatchObject({ log_index: r.log_index, log_nonce: r.log_nonce });
      expect(r.log_nonce).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    }
  });
});

describe("/feed.xml", () => {
  it("parses with an independent Atom reader, text surviving the XML escaping", async () => {
    const links: unknown[] = [];
    const parsed = extractFromXml(await read("feed.xml"), {
      descriptionMaxLen: 0,
      getExtraFeedFields: (f) => {
        links.push(...[f.link].flat());
        return { updated: f.updated, id: f.id };
      },
      getExtraEntryFields: (e) => ({ updated: e.updated, href: (e.link as Record<string, string>)["@_href"] }),
    });
    // feed@6 writes RFC 3339 dates with milliseconds.
    const atomDate = (rfc3339: string) => new Date(rfc3339).toISOString();
    expect(parsed).toMatchObject({ id: `${TAG}reviews`, updated: atomDate(NEWEST_PUBLISHED), language: "en-US" });
    expect(links).toEqual([
      { "@_rel": "alternate", "@_href": `${BASE}/` },
      { "@_rel": "self", "@_href": `${BASE}/feed.xml` },
      { "@_rel": "hub", "@_href": `${BASE}/api/websub/hub` },
    ]);
    expect(parsed.entries?.map((e) => e.id)).toEqual(NEWEST_FIRST.map((id) => `${TAG}review/${id}`));
    const carlos = parsed.entries?.[0];
    expect(carlos).toMatchObject({
      title: "Back on the trail",
      href: `${BASE}/reviews/2025-03-10-carlos-d/`,
      published: "2025-03-12T17:45:00.000Z",
      updated: atomDate(NEWEST_PUBLISHED),
    });
    expect(carlos?.description).toContain("honest about what would & wouldn't help");
    // An entry's updated moves to its owner reply.
    expect(parsed.entries?.find((e) => e.id.endsWith("greg-h"))?.updated).toBe("2024-05-20T00:00:00.000Z");
  });
});

describe("_headers.json and _headers", () => {
  let manifest: HeadersManifest;
  beforeAll(async () => {
    manifest = JSON.parse(await read("_headers.json"));
  });

  it("gives every served file a strong ETag that is a hash of its bytes", async () => {
    const files = (await readDistFiles(dist)).filter((f) => f.path !== "/_headers" && f.path !== "/_headers.json");
    expect(Object.keys(manifest.files)).toEqual(files.map((f) => f.path));
    for (const f of files) {
      const sha = createHash("sha256").update(f.bytes).digest("base64url");
      expect(manifest.files[f.path]?.etag).toBe(`"${sha.slice(0, 22)}"`);
    }
  });

  it("serves JSON as application/json, Atom as application/atom+xml and pages as HTML", () => {
    expect(manifest.files["/reviews.json"]?.content_type).toBe("application/json");
    expect(manifest.files["/api/feed.json"]?.content_type).toBe("application/json");
    expect(manifest.files["/feed.xml"]?.content_type).toBe("application/atom+xml; charset=utf-8");
    expect(manifest.files["/index.html"]?.content_type).toBe("text/html; charset=utf-8");
  });

  it("dates every file of a first build by the build's time (no earlier build to carry dates from)", () => {
    const dates = new Set(Object.values(manifest.files).map((h) => h.last_modified));
    expect(dates.size).toBe(1);
    const [date] = dates;
    expect(Math.abs(Date.parse(date as string) - Date.now())).toBeLessThan(3_600_000);
  });

  it("advertises the hub on exactly the three WebSub topics", () => {
    const linked = Object.entries(manifest.files).filter(([, h]) => h.link !== undefined);
    expect(linked.map(([p]) => p)).toEqual(TOPICS);
    for (const [topic, h] of linked)
      expect(h.link).toBe(`<${BASE}/api/websub/hub>; rel="hub", <${BASE}${topic}>; rel="self"`);
  });

  it("writes _headers in the Netlify / Cloudflare Pages format from the same data", async () => {
    const blocks = parseHeadersFile(await read("_headers"));
    // Cloudflare Pages caps _headers at 100 rules, so month pages and assets share splat rules.
    expect(blocks.size).toBeLessThanOrEqual(100);
    for (const [file, h] of Object.entries(manifest.files)) {
      const splat = splatFor(file);
      const block = blocks.get(splat ?? file);
      expect(block?.get("ETag")).toBe(splat ? undefined : h.etag);
      expect(block?.get("Content-Type")).toBe(splat && !splatIsTyped(splat) ? undefined : h.content_type);
      expect(block?.get("Cache-Control")).toBe(h.cache_control);
      // A shared rule states no Last-Modified, as it states no ETag: each page has its own.
      expect(block?.get("Last-Modified")).toBe(splat ? undefined : h.last_modified);
      expect(block?.get("Link")).toBe(h.link);
    }
    // The home page is also reachable as "/", and a CDN matches on the URL, not the file.
    expect(blocks.get("/")).toEqual(blocks.get("/index.html"));
  });
});

describe("/openapi.json as built", () => {
  const ROOT = path.resolve(import.meta.dirname, "../..");

  it("has no Spectral (spectral:oas) errors or warnings", async () => {
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve, reject) => {
      const child = spawn(
        path.join(ROOT, "node_modules/.bin/spectral"),
        [
          "lint",
          "--ruleset",
          path.join(ROOT, ".spectral.yaml"),
          "--format",
          "json",
          "--quiet",
          path.join(dist, "openapi.json"),
        ],
        { cwd: ROOT },
      );
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.on("error", reject);
      child.on("close", (c) => resolve({ stdout: out, code: c }));
    });
    const results = JSON.parse(stdout || "[]") as { code: string; message: string; path: string[] }[];
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join(".")}`)).toEqual([]);
    expect(code).toBe(0);
  });

  it("has no problems under Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: await read("openapi.json"), absoluteRef: "/openapi.json", config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });
});
