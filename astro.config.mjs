// @ts-check
import { defineConfig } from "astro/config";
import { astroCacheDir } from "./src/build/astro-build.ts";
import { loadConfig } from "./src/config.ts";
import { buildOutputs } from "./src/integrations/build-outputs.ts";
import { emptyOutDir } from "./src/integrations/empty-out-dir.ts";
import { hubPing } from "./src/integrations/hub-ping.ts";
import { incrementalGuard } from "./src/integrations/incremental-guard.ts";
import { reviewLogFiles } from "./src/integrations/review-log.ts";
import { reviewsJson } from "./src/integrations/reviews-json.ts";
import { servedDistGuard } from "./src/integrations/served-dist-guard.ts";
import { sitemap } from "./src/integrations/sitemap.ts";

const config = loadConfig();

export default defineConfig({
  site: config.BASE_URL,
  outDir: config.DIST_DIR,
  // One cache per output folder (or per ASTRO_CACHE_KEY): see src/build/astro-build.ts.
  cacheDir: astroCacheDir(config.ASTRO_CACHE_KEY ?? config.DIST_DIR),
  output: "static",
  trailingSlash: "ignore",
  // Stylesheets as files, so the Content-Security-Policy can say `style-src 'self'` with no
  // 'unsafe-inline' (src/http-headers/security.ts); hashed names keep them cacheable forever.
  build: { format: "directory", inlineStylesheets: "never" },
  devToolbar: { enabled: false },
  // A rebuild copies the month, review and evidence pages whose data did not change from the last build of the same
  // cache instead of rendering them (src/site/month-page-props.ts, docs/site.md "Incremental rebuilds").
  experimental: { incrementalBuild: true },
  integrations: [
    // Beside a running npm start, DIST_DIR is the build it serves: a build must not write into it.
    servedDistGuard(config.DIST_DIR),
    // An output folder holding an earlier build is renamed aside and removed while this one runs.
    emptyOutDir(),
    incrementalGuard(),
    // /reviews.json is written by this integration, not by an endpoint: see its module.
    reviewsJson(),
    sitemap(),
    // npm start builds into fresh folders keyed by its stable DIST_DIR, the build it serves: the
    // previous build whose Last-Modified values carry over (src/http-headers/last-modified.ts).
    buildOutputs({
      baseUrl: config.BASE_URL,
      baseUrlExplicit: config.baseUrlExplicit,
      previousDir: config.ASTRO_CACHE_KEY ?? config.DIST_DIR,
    }),
    // After build-outputs: the log is committed to LOG_DIR only once the build is complete.
    reviewLogFiles(),
    ...(config.HUB_URL === "off"
      ? []
      : [hubPing({ hubUrl: config.HUB_URL ?? config.hubUrl, baseUrl: config.BASE_URL })]),
  ],
});
