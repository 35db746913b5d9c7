import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewRecord, ReviewsDataset } from "../../../src/content/records.ts";
import { reviewsJson, writeDatasetJson } from "../../../src/integrations/reviews-json.ts";
import { forgetBuildContent, perBuild, SITE_DATA } from "../../../src/io/build-content.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import type { SiteData } from "../../../src/site/site-data.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
const fixture = buildDataset(content, "https://reviews.example");

/** What the `/reviews.json` endpoint answered before the build wrote the file itself. */
const reference = (d: ReviewsDataset) => Buffer.from(`${JSON.stringify(d, null, 2)}\n`, "utf8");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "reviews-json-"));
});
afterAll(async () => {
  forgetBuildContent();
  await rm(dir, { recursive: true, force: true });
});

async function written(d: ReviewsDataset): Promise<Buffer> {
  const file = path.join(dir, "reviews.json");
  await writeDatasetJson(file, d);
  return readFile(file);
}

/** The fixture's reviews `copies` times over, with text outside Latin-1 and of growing length. */
function many(copies: number, extra: string): ReviewRecord[] {
  return Array.from({ length: copies }, (_, i) =>
    fixture.reviews.map((r) => ({ ...r, id: `${r.id}-${i}`, text: `${r.text} ${extra} ${"x".repeat(i)}` })),
  ).flat();
}

describe("writeDatasetJson", () => {
  it("writes exactly JSON.stringify(dataset, null, 2) and a newline, in UTF-8, over many pieces", async () => {
    for (const extra of ["plain", "✓ é 😀 \u2028"]) {
      const big: ReviewsDataset = { ...fixture, reviews: many(200, extra) };
      expect((await written(big)).equals(reference(big))).toBe(true);
    }
  });

  it("writes the fixture and an empty dataset exactly, replacing what was there", async () => {
    expect((await written(fixture)).equals(reference(fixture))).toBe(true);
    const empty: ReviewsDataset = { ...fixture, reviews: [] };
    expect((await written(empty)).equals(reference(empty))).toBe(true);
  });

  it("is exact for any review text", async () => {
    const text = fc.string({ unit: fc.constantFrom("a", "\n", '"', "\\", "é", "😀", "\u2028", " ") });
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), async (texts) => {
        const reviews = texts.map((t, i) => ({ ...(fixture.reviews[0] as ReviewRecord), id: `r-${i}`, text: t }));
        const d: ReviewsDataset = { ...fixture, reviews };
        expect((await written(d)).equals(reference(d))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe("the reviews-json integration", () => {
  const generated = (out: string) => {
    const hook = reviewsJson().hooks["astro:build:generated"];
    if (!hook) throw new Error("no astro:build:generated hook");
    return hook({ dir: pathToFileURL(`${out}/`), logger: undefined, routeToHeaders: new Map() } as never);
  };

  it("writes the dataset the pages of this build read into the output folder", async () => {
    forgetBuildContent();
    const out = await mkdtemp(path.join(dir, "dist-"));
    const dataset: ReviewsDataset = { ...fixture, reviews: many(30, "✓") };
    perBuild(SITE_DATA, () => Promise.resolve({ dataset } as SiteData));
    await generated(out);
    expect((await readFile(path.join(out, "reviews.json"))).equals(reference(dataset))).toBe(true);
  });

  it("fails the build, saying why, when no page computed the site data", async () => {
    forgetBuildContent();
    const out = await mkdtemp(path.join(dir, "dist-"));
    await expect(generated(out)).rejects.toThrow(/no page of this build computed siteData\(\)/);
  });
});
