import { astroCacheDir } from "../build/astro-build.ts";
import { loadConfig } from "../config.ts";
import { editorLabels, recordsOf } from "../content/dataset.ts";
import { annotationDir } from "../insights/annotation-store.ts";
import { type Analysis, analyzeReviews } from "../insights/build.ts";
import { cachedSummaries } from "../insights/cached-summaries.ts";
import { createAnalyzer } from "../insights/nlp.ts";
import { buildContent, perBuild } from "../io/build-content.ts";
import { type ReviewLog, reviewLog } from "../io/review-log.ts";
import { siteUrls } from "../urls.ts";

/**
 * The part of a build's site data that needs no Astro virtual module: this build's review log and
 * the insights analysis of the checked content. The `site-analysis` integration starts it as the
 * build starts (src/integrations/site-analysis.ts), so it runs while Vite bundles the pages instead
 * of after, when the first page asks for `siteData()` (src/site/site-data.ts), which awaits it.
 */
export interface SiteAnalysis {
  /** The annotated records, the insights and the counted sentences, from one pass. */
  analysis: Analysis;
  log: ReviewLog;
}

/** Once per build (`perBuild`), whichever copy of this module asks first. */
export function siteAnalysis(): Promise<SiteAnalysis> {
  return perBuild("site-analysis", async () => {
    const { content, insights, fields } = await buildContent();
    const config = loadConfig();
    // The log comes first: every record carries the index of its latest log entry.
    const log = await reviewLog(fields, content, { warn: (m) => process.stderr.write(`${m}\n`) });
    const records = recordsOf(fields, siteUrls(config.BASE_URL).base, log.plan.positions, editorLabels(content));
    // Each review's analysis is cached in Astro's cache folder and, for many new reviews, done on
    // every core first; the annotation pass below then reads it back (insights/annotation-store.ts).
    // Builds run from the project root; this module is bundled, so it has no path of its own.
    const dir = annotationDir(astroCacheDir(config.ASTRO_CACHE_KEY ?? config.DIST_DIR, process.cwd()));
    let analyzer: ReturnType<typeof createAnalyzer> | undefined;
    const cache = await cachedSummaries({
      dir,
      content: insights,
      business: content.business,
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
        business: content.business,
        content: insights,
        summarise: cache.summarise,
      });
    } catch (err) {
      cache.abort();
      throw err;
    }
    cache.finish();
    return { analysis, log };
  });
}
