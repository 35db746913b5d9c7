// @ts-check
import { defineConfig } from "astro/config";
import { astroCacheDir, distDirProblem } from "./src/build/astro-build.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { analyzerWarmUp } from "./src/integrations/analyzer-warm-up.ts";
import { buildOutputs } from "./src/integrations/build-outputs.ts";
import { cliBuildLock } from "./src/integrations/cli-build-lock.ts";
import { contentFirst } from "./src/integrations/content-first.ts";
import { hubPing } from "./src/integrations/hub-ping.ts";
import { incrementalGuard } from "./src/integrations/incremental-guard.ts";
import { outDir } from "./src/integrations/out-dir.ts";
import { releaseSiteData } from "./src/integrations/release-site-data.ts";
import { reviewLogFiles } from "./src/integrations/review-log.ts";
import { reviewsJson } from "./src/integrations/reviews-json.ts";
import { servedDistGuard } from "./src/integrations/served-dist-guard.ts";
import { sitemap } from "./src/integrations/sitemap.ts";
import { pathPrefix } from "./src/site/html-view.ts";

const config = configOrExit();

/**
 * The environment's config; a bad variable, or a DIST_DIR Astro cannot build into, is printed in
 * its own words and exits 1, as Astro would wrap a throw in a stack trace.
 */
function configOrExit() {
  try {
    const config = loadConfig();
    const problem = distDirProblem(config);
    if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
    return config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
const outputs = outDir();

export default defineConfig({
  site: config.BASE_URL,
  outDir: config.DIST_DIR,
  // One cache per output folder (or per ASTRO_CACHE_KEY): see src/build/astro-build.ts.
  cacheDir: astroCacheDir(config.ASTRO_CACHE_KEY ?? config.DIST_DIR),
  output: "static",
  trailingSlash: "ignore",
  // Stylesheets as files, so the Content-Security-Policy can say `style-src 'self'` with no
  // 'unsafe-inline' (src/http-headers/security.ts); hashed names keep them cacheable forever.
  // Four pages at once, so one page's writes overlap another's render: a cold 10,000-review build fell
  // by a quarter to a third on 2 cores; 8 and 16 gained no more and raised the peak memory of a
  // 100,000-review build, whose evidence pages are large (docs/benchmarks-log.md, 2026-12-01).
  // Under a BASE_URL below a folder (https://example.org/reviews) the stylesheet links carry the
  // folder, as every other link of the pages does (pathPrefix); /_astro/ at the host's root is not ours.
  build: {
    format: "directory",
    inlineStylesheets: "never",
    concurrency: 4,
    assetsPrefix: pathPrefix(config.BASE_URL) || undefined,
  },
  // The output folder is ours to empty or keep (src/integrations/out-dir.ts): Astro keeps a page whose
  // key is unchanged when its file is already there, instead of copying it back from its cache.
  vite: { build: { emptyOutDir: false } },
  devToolbar: { enabled: false },
  // A rebuild copies the month, review and evidence pages whose data did not change from the last build of the same
  // cache instead of rendering them (src/site/month-page-props.ts, docs/site.md "Incremental rebuilds").
  experimental: { incrementalBuild: true },
  integrations: [
    // Beside a running npm start, DIST_DIR is the build it serves: a build must not write into it.
    servedDistGuard(config.DIST_DIR),
    // `npm run build` waits for any other build of this checkout (their Astro folders are shared).
    cliBuildLock(),
    // The content is checked first, before the output folder is touched or anything is bundled,
    // with or without Astro's content sync.
    contentFirst(),
    // Readies the output folder when the build starts and removes what the build no longer writes
    // once the pages are written, before the integrations below add their files.
    outputs.prepare,
    incrementalGuard(),
    // Reads wink's model while Vite bundles, off the path from the review log to the analysis.
    analyzerWarmUp(),
    // /reviews.json is written by this integration, not by an endpoint: see its module.
    reviewsJson(),
    sitemap(),
    // The site data's last readers are above: what follows (the log's tiles, the header manifest)
    // reuses its memory.
    releaseSiteData(),
    // npm start builds into fresh folders keyed by its stable DIST_DIR, the build it serves: the
    // previous build whose Last-Modified values carry over (src/http-headers/last-modified.ts).
    buildOutputs({
      baseUrl: config.BASE_URL,
      baseUrlExplicit: config.baseUrlExplicit,
      previousDir: config.ASTRO_CACHE_KEY ?? config.DIST_DIR,
    }),
    // After build-outputs: the log is committed to LOG_DIR only once the build is complete.
    reviewLogFiles(),
    // Last: records that DIST_DIR now holds this cache's complete build, to be kept in place next time.
    outputs.record,
    ...(config.HUB_URL === "off"
      ? []
      : [hubPing({ hubUrl: config.HUB_URL ?? config.hubUrl, baseUrl: config.BASE_URL })]),
  ],
});
