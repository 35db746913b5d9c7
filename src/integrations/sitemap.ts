import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { reviewPath } from "../content/dataset.ts";
import { itemModifiedMs } from "../feeds/entries.ts";
import { madeThisBuild, SITE_DATA } from "../io/build-content.ts";
import { evidenceParts } from "../site/evidence-paths.ts";
import { monthPages } from "../site/html-view.ts";
import { monthParts } from "../site/month-page-props.ts";
import type { SiteData } from "../site/site-data.ts";
import { robotsTxt, type SitemapEntry, sitemapFiles } from "../site/sitemap.ts";

/**
 * Writes `/sitemap.xml` (and `/robots.txt`, which points to it) after Astro has generated the pages, from the `siteData()` they were
 * rendered from (as `/reviews.json` is written; see reviews-json.ts): the home page, the month
 * archives, the review pages (each with the day it last changed) and the evidence pages.
 */
export function sitemap(): AstroIntegration {
  return {
    name: "public-reviews/sitemap",
    hooks: {
      "astro:build:generated": async ({ dir }) => {
        const made = madeThisBuild<Promise<SiteData>>(SITE_DATA);
        if (!made) throw new Error("sitemap.xml: no page of this build computed siteData()");
        const site = await made;
        const out = fileURLToPath(dir);
        for (const f of sitemapFiles(site.urls.base, sitemapEntries(site)))
          await writeFile(path.join(out, f.name), f.body, "utf8");
        await writeFile(path.join(out, "robots.txt"), robotsTxt(site.urls.base, site.urls.sitemap), "utf8");
      },
    },
  };
}

/** Every HTML page of a build with an address of its own (not the 404 page), in a fixed order. */
export function sitemapEntries(site: Pick<SiteData, "dataset" | "evidence" | "changes">): SitemapEntry[] {
  const { reviews } = site.dataset;
  return [
    { path: "/" },
    // The review log's page (src/pages/log/index.astro).
    { path: "/log/" },
    // The API reference (src/pages/api/index.astro).
    { path: "/api/" },
    ...monthPages(reviews).flatMap((m) => monthParts(m).map((part) => ({ path: part.path }))),
    ...reviews.map((r) => ({
      path: reviewPath(r.id),
      lastmod: new Date(itemModifiedMs(r, site.changes)).toISOString().slice(0, 10),
    })),
    ...site.evidence.flatMap((p) => evidenceParts(p.path, p.reviews.length).map((part) => ({ path: part.path }))),
  ];
}
