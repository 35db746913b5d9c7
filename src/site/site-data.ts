import { astroCacheDir } from "../build/astro-build.ts";
import { loadConfig } from "../config.ts";
import { datasetOf, editorLabels, recordsOf } from "../content/dataset.ts";
import type { ReviewsDataset } from "../content/records.ts";
import { type ListChanges, listChanges } from "../feeds/entries.ts";
import { annotationDir } from "../insights/annotation-store.ts";
import { type Analysis, analyzeReviews, aspectRefs } from "../insights/build.ts";
import { cachedSummaries } from "../insights/cached-summaries.ts";
import { createAnalyzer } from "../insights/nlp.ts";
import type { Insights } from "../insights/schema.ts";
import { buildContent, perBuild, SITE_DATA } from "../io/build-content.ts";
import { reviewLog } from "../io/review-log.ts";
import { type LogView, logView } from "../log/view.ts";
import { type SiteUrls, siteUrls } from "../urls.ts";
import { type EvidencePage, evidencePages } from "./evidence.ts";
import { verificationSentence } from "./html-view.ts";

/**
 * The build-time glue between the checked content and the pure core: every page and endpoint
 * calls `siteData()` and gets the same dataset, computed once per build. Everything comes from
 * `buildContent()`, the one check of CONTENT_DIR per build (src/io/build-content.ts), not from
 * Astro's collections: npm start's build worker skips Astro's content sync, which fills them
 * (src/build/astro-worker-main.ts).
 */
export interface SiteData {
  dataset: ReviewsDataset;
  urls: SiteUrls;
  /** Derived from the same per-review annotations as the records' `aspects`. */
  insights: Insights;
  /** Per review and aspect, the sentence its reading rests on (the evidence pages show it). */
  counted: Analysis["counted"];
  /** The evidence pages (src/site/evidence.ts), made once: the pages and the sitemap list them. */
  evidence: EvidencePage[];
  /** The footer's verification sentence: every page shows it, and it reads every review. */
  verification: string;
  /** When the practice last reviewed its editorial summary and FAQ (their `reviewed:` dates), if it said. */
  editorialReviewed: { summary?: string; faq?: string };
  /** The review log after this build: the home page's counts and the /log/ page. */
  log: LogView;
  /** When the log says reviews changed after publication or left the list: the feeds' dates. */
  changes: ListChanges;
}

/** Computed once per build (`perBuild`: a module-level memo would outlive a build in npm start's build worker). */
export function siteData(): Promise<SiteData> {
  return perBuild(SITE_DATA, async () => {
    const { content, fields, insights: insightsContent } = await buildContent();
    const business = content.business;
    const config = loadConfig();
    const urls = siteUrls(config.BASE_URL);
    // The log comes first: every record carries the index of its latest log entry. The fields are
    // the ones the content check made for its size check.
    const log = await reviewLog(fields, content, { warn: (m) => process.stderr.write(`${m}\n`) });
    const records = recordsOf(fields, urls.base, log.plan.positions, editorLabels(content));
    // Each review's analysis is cached in Astro's cache folder and, for many new reviews, done on
    // every core first; the annotation pass below then reads it back (insights/annotation-store.ts).
    // Builds run from the project root; this module is bundled, so it has no path of its own.
    const dir = annotationDir(astroCacheDir(config.ASTRO_CACHE_KEY ?? config.DIST_DIR, process.cwd()));
    let analyzer: ReturnType<typeof createAnalyzer> | undefined;
    const cache = await cachedSummaries({
      dir,
      content: insightsContent,
      business,
      reviews: records,
      own: () => {
        analyzer ??= createAnalyzer();
        return analyzer;
      },
    });
    // One analysis: the annotated records and every insight come out of the same pass.
    let analysis: Analysis;
    try {
      analysis = analyzeReviews({
        reviews: records,
        business,
        content: insightsContent,
        summarise: cache.summarise,
      });
    } catch (err) {
      cache.abort();
      throw err;
    }
    cache.finish();
    const dataset = datasetOf(business, analysis.reviews, aspectRefs(insightsContent));
    return {
      dataset,
      urls,
      insights: analysis.insights,
      counted: analysis.counted,
      evidence: evidencePages(dataset, analysis.insights),
      verification: verificationSentence(analysis.reviews),
      editorialReviewed: { summary: insightsContent.summary_reviewed, faq: insightsContent.faq_reviewed },
      log: logView(log),
      changes: listChanges(log.plan, content.withdrawn),
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
