import { getEntry } from "astro:content";
import { loadConfig } from "../config.ts";
import { datasetOf } from "../content/dataset.ts";
import type { ReviewsDataset } from "../content/records.ts";
import { type Analysis, aspectRefs } from "../insights/build.ts";
import type { Insights } from "../insights/schema.ts";
import { perBuild, SITE_DATA } from "../io/build-content.ts";
import { type LogView, logView } from "../log/view.ts";
import { type SiteUrls, siteUrls } from "../urls.ts";
import { verificationSentence } from "./html-view.ts";
import { siteAnalysis } from "./site-analysis.ts";

/**
 * The build-time glue between the checked content and the pure core: every page and endpoint
 * calls `siteData()` and gets the same dataset, computed once per build. The business and the
 * insights content come from Astro's collections; the review log and the analysed records from
 * `siteAnalysis()`, which the build started before bundling the pages (src/site/site-analysis.ts).
 */
export interface SiteData {
  dataset: ReviewsDataset;
  urls: SiteUrls;
  /** Derived from the same per-review annotations as the records' `aspects`. */
  insights: Insights;
  /** Per review and aspect, the sentence its reading rests on (the evidence pages show it). */
  counted: Analysis["counted"];
  /** The footer's verification sentence: every page shows it, and it reads every review. */
  verification: string;
  /** When the practice last reviewed its editorial summary and FAQ (their `reviewed:` dates), if it said. */
  editorialReviewed: { summary?: string; faq?: string };
  /** The review log after this build: the home page's counts and the /log/ page. */
  log: LogView;
}

/** Computed once per build (`perBuild`: a module-level memo would outlive a build in npm start's build worker). */
export function siteData(): Promise<SiteData> {
  return perBuild(SITE_DATA, async () => {
    const business = await getEntry("business", "business");
    if (!business) throw new Error("content/business.yaml was not loaded");
    const insightsEntry = await getEntry("insights", "insights");
    if (!insightsEntry) throw new Error("content/insights was not loaded");
    const { analysis, log } = await siteAnalysis();
    return {
      dataset: datasetOf(business.data, analysis.reviews, aspectRefs(insightsEntry.data)),
      urls: siteUrls(loadConfig().BASE_URL),
      insights: analysis.insights,
      counted: analysis.counted,
      verification: verificationSentence(analysis.reviews),
      editorialReviewed: { summary: insightsEntry.data.summary_reviewed, faq: insightsEntry.data.faq_reviewed },
      log: logView(log),
    };
  });
}

/**
 * The insights of this build, computed once however many pages ask: the analysis is the most
 * expensive step of a build, so `/insights.json`, the home page and the records share one result.
 */
export async function siteInsights(): Promise<Insights> {
  return (await siteData()).insights;
}
