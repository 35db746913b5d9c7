import { getCollection, getEntry } from "astro:content";
import { loadConfig } from "../config.ts";
import { buildRecords, datasetOf } from "../content/dataset.ts";
import type { ReviewsDataset } from "../content/records.ts";
import { analyzeReviews, aspectRefs } from "../insights/build.ts";
import type { Insights } from "../insights/schema.ts";
import { type SiteUrls, siteUrls } from "../urls.ts";

/**
 * The build-time glue between Astro's content collections and the pure core: every page and
 * endpoint calls `siteData()` and gets the same dataset, computed once per build.
 */
export interface SiteData {
  dataset: ReviewsDataset;
  urls: SiteUrls;
  /** Derived from the same per-review annotations as the records' `aspects`. */
  insights: Insights;
}

let cached: Promise<SiteData> | undefined;

export function siteData(): Promise<SiteData> {
  cached ??= (async () => {
    const business = await getEntry("business", "business");
    if (!business) throw new Error("content/business.yaml was not loaded");
    const entries = await getCollection("reviews");
    const reviews = entries.map((e) => ({ id: e.id, file: e.filePath ?? e.id, ...e.data }));
    const insightsEntry = await getEntry("insights", "insights");
    if (!insightsEntry) throw new Error("content/insights was not loaded");
    const urls = siteUrls(loadConfig().BASE_URL);
    // One analysis: the annotated records and every insight come out of the same pass.
    const analysis = analyzeReviews({
      reviews: buildRecords({ business: business.data, reviews }, urls.base),
      business: business.data,
      content: insightsEntry.data,
    });
    return {
      dataset: datasetOf(business.data, analysis.reviews, aspectRefs(insightsEntry.data)),
      urls,
      insights: analysis.insights,
    };
  })();
  return cached;
}

/**
 * The insights of this build, computed once however many pages ask: the analysis is the most
 * expensive step of a build, so `/insights.json`, the home page and the records share one result.
 */
export async function siteInsights(): Promise<Insights> {
  return (await siteData()).insights;
}
