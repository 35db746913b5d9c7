import { getCollection, getEntry } from "astro:content";
import { loadConfig } from "../config.ts";
import { buildDataset } from "./dataset.ts";
import { buildInsights } from "./insights/build.ts";
import type { Insights } from "./insights/schema.ts";
import type { ReviewsDataset } from "./records.ts";
import { type SiteUrls, siteUrls } from "./site.ts";

/**
 * The build-time glue between Astro's content collections and the pure core: every page and
 * endpoint calls `siteData()` and gets the same dataset, computed once per build.
 */
export interface SiteData {
  dataset: ReviewsDataset;
  urls: SiteUrls;
}

let cached: Promise<SiteData> | undefined;

export function siteData(): Promise<SiteData> {
  cached ??= (async () => {
    const business = await getEntry("business", "business");
    if (!business) throw new Error("content/business.yaml was not loaded");
    const entries = await getCollection("reviews");
    const reviews = entries.map((e) => ({ id: e.id, file: e.filePath ?? e.id, ...e.data }));
    const urls = siteUrls(loadConfig().BASE_URL);
    return { dataset: buildDataset({ business: business.data, reviews }, urls.base), urls };
  })();
  return cached;
}

let insightsCached: Promise<Insights> | undefined;

/**
 * The insights of this build, computed once however many pages ask: the analysis is the most
 * expensive step of a build, so `/insights.json` and the home page share one result.
 */
export function siteInsights(): Promise<Insights> {
  insightsCached ??= (async () => {
    const entry = await getEntry("insights", "insights");
    if (!entry) throw new Error("content/insights was not loaded");
    const { dataset } = await siteData();
    return buildInsights({ reviews: dataset.reviews, business: dataset.business, content: entry.data });
  })();
  return insightsCached;
}
