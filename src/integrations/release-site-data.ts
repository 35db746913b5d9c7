import type { AstroIntegration } from "astro";
import { releasePages } from "../io/build-content.ts";
import { REVIEW_LOG } from "../io/review-log.ts";

/**
 * Lets go of the site data once nothing of the build reads it: after the pages, `/reviews.json` and
 * the sitemap (the integrations before this one in astro.config.mjs), keeping only the review log,
 * whose files are written next. Placed after the last reader of `siteData()`.
 */
export function releaseSiteData(): AstroIntegration {
  return {
    name: "public-reviews/release-site-data",
    hooks: {
      "astro:build:generated": () => releasePages([REVIEW_LOG]),
    },
  };
}
