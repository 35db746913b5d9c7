import type { AstroIntegration } from "astro";

/**
 * Starts this build's review log and insights analysis (`siteAnalysis`, src/site/site-analysis.ts)
 * as the build starts, so they run while Vite bundles the pages; the first page that asks for
 * `siteData()` then finds them done or under way. Imported when the hook runs, so other Astro
 * commands do not load the analysis. A failure is reported where the pages await the same promise
 * (or ends the build itself, as a content or log problem does), so it is not reported here too.
 */
export function siteAnalysisEarly(): AstroIntegration {
  return {
    name: "public-reviews/site-analysis",
    hooks: {
      "astro:build:start": () => {
        void import("../site/site-analysis.ts").then((m) => m.siteAnalysis()).catch(() => undefined);
      },
    },
  };
}
