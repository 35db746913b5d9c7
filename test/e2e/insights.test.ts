import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../src/content/dataset.ts";
import type { HeadersManifest } from "../../src/http-headers/manifest.ts";
import { buildInsights } from "../../src/insights/build.ts";
import { renderInsightsJson } from "../../src/insights/publish.ts";
import { type Insights, InsightsSchema } from "../../src/insights/schema.ts";
import { loadContent } from "../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../src/io/insights-dir.ts";
import { type BuildResult, buildSite } from "../helpers/build-site.ts";

/**
 * Real `astro build`s of test/fixtures/insights-content: one shared build for the outputs, a second
 * for determinism, and one failing build per editorial file type. The figures themselves are
 * checked against the hand count in test/src/insights/build.test.ts; here the point is that the build
 * publishes exactly what the pure builder computes, on the page and in /insights.json.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const BASE = "https://reviews.example";

async function copyFixture(edit?: (dir: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-insights-"));
  await cp(FIXTURE, dir, { recursive: true });
  await edit?.(dir);
  return dir;
}

async function build(dir: string): Promise<BuildResult> {
  const result = await buildSite(dir, { BASE_URL: BASE });
  if (result.code !== 0) throw new Error(`build of ${dir} failed:\n${result.stdout}\n${result.stderr}`);
  return result;
}

const read = (r: BuildResult, file: string) => readFile(path.join(r.distDir, file), "utf8");

let first: BuildResult;
let json: string;
let html: string;

beforeAll(async () => {
  first = await build(await copyFixture());
  json = await read(first, "insights.json");
  html = await read(first, "index.html");
});

describe("/insights.json from a real build", () => {
  it("is exactly what the pure builder computes from the same content", async () => {
    const content = await loadContent(FIXTURE, { now: new Date() });
    const dataset = buildDataset(content, BASE);
    const editorial = await loadInsightsContent(
      FIXTURE,
      dataset.reviews.map((r) => r.id),
    );
    const expected = buildInsights({ reviews: dataset.reviews, business: dataset.business, content: editorial });
    expect(json).toBe(renderInsightsJson(expected));
    const parsed: Insights = InsightsSchema.parse(JSON.parse(json));
    expect(parsed.summary.coverage.review_count).toBe(8);
  });

  it("carries an ETag, Last-Modified and Cache-Control like the other datasets", async () => {
    const manifest = JSON.parse(await read(first, "_headers.json")) as HeadersManifest;
    const headers = manifest.files["/insights.json"];
    // The same Last-Modified as the dataset in a first build: both are dated by the build's time.
    expect(headers).toMatchObject({
      content_type: "application/json",
      last_modified: manifest.files["/reviews.json"]?.last_modified,
    });
    expect(headers?.last_modified).toMatch(/ GMT$/);
    expect(headers?.etag).toMatch(/^"[\w-]{22}"$/);
    expect(headers?.cache_control).toContain("max-age=");
  });
});

describe("the insights section of the home page", () => {
  const section = () =>
    html.slice(html.indexOf('id="insights"'), html.indexOf("</section>", html.indexOf('id="insights"')));

  it("draws aspect sentiment as an accessible diverging chart, each share linking to its reviews, with a table alternative", () => {
    const s = section();
    expect(s).toMatch(/<figure[^>]*aria-labelledby="aspects-chart-title"/);
    expect(s).toContain("Share of negative and positive reviews per aspect</figcaption>");
    expect(s).toMatch(
      /Price, billing and insurance<\/span>\s*<a[^>]*href="\/insights\/billing\/negative\/"[^>]*>(<span[^>]*>negative <\/span>)?100%<\/a>/,
    );
    expect(s).toMatch(/<th scope="row"[^>]*>Practitioner care and explanation<\/th>/);
  });

  it("links every example and every FAQ evidence to its review's permalink", () => {
    const insights = InsightsSchema.parse(JSON.parse(json));
    const s = section();
    const urls = [
      ...insights.aspects.flatMap((a) => [...a.examples.positive, ...a.examples.negative]),
      ...insights.faq.flatMap((f) => f.evidence),
    ].map((e) => e.url);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(s).toContain(`href="${url}"`);
    expect(s).toContain(`href="${BASE}/reviews/2025-06-10-mixed-care/"`);
  });

  it("lists practitioners and services with their average ratings, the FAQ and the summary", () => {
    const s = section();
    // Each figure links to the evidence page that lists the reviews behind it.
    const cell = (text: string) =>
      `<td[^>]*>(<span[^>]*>[^<]*</span>)?(<span[^>]*>)?<a href="/insights/[a-z-]+/[a-z0-9-]+/"[^>]*>${text}</a>(</span>)?</td>`;
    expect(s).toMatch(new RegExp(`<th scope="row"[^>]*>Tom Lindqvist</th>${cell("2")}${cell("4\\.50")}`));
    expect(s).toMatch(new RegExp(`<th scope="row"[^>]*>Spinal adjustment</th>${cell("1")}${cell("5\\.00")}`));
    expect(s).toMatch(/<summary[^>]*>Is billing reliable\?<\/summary>/);
    expect(s).toContain("Billing is the sore point.");
  });
});

describe("insights builds", () => {
  it("give identical bytes for identical content", async () => {
    const second = await build(await copyFixture());
    expect(await read(second, "insights.json")).toBe(json);
    expect(await read(second, "index.html")).toBe(html);
  });

  it("fail on a bad aspects.yaml, naming the file, the field and the reason", async () => {
    const dir = await copyFixture(async (d) => {
      const file = path.join(d, "insights/aspects.yaml");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace("terms: [front desk]", "terms: []"));
    });
    const result = await buildSite(dir, { BASE_URL: BASE });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toContain(
      `${dir}/insights/aspects.yaml: line 14: aspects[2].terms: expected at least one term, got []`,
    );
  });

  it("fail on FAQ evidence that names no review", async () => {
    const dir = await copyFixture(async (d) => {
      const file = path.join(d, "insights/faq.yaml");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace("2024-08-01-billed-twice]", "2024-08-01-billed-twice, 2024-08-02-nobody]"));
    });
    const result = await buildSite(dir, { BASE_URL: BASE });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toContain(
      `${dir}/insights/faq.yaml: line 4: faq[0].evidence[2]: unknown review id; no content/reviews/<year>/<id>.yaml has it, got "2024-08-02-nobody"`,
    );
  });
});
