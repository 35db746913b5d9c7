import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { tellParent } from "../build/build-channel.ts";
import type { ReviewsDataset } from "../content/records.ts";
import { madeThisBuild, SITE_DATA } from "../io/build-content.ts";
import { datasetJsonPieces } from "../site/dataset-json.ts";
import type { SiteData } from "../site/site-data.ts";

/**
 * Writes `/reviews.json` into the build's output folder piece by piece, after Astro has generated
 * the pages and before `astro:build:done` hashes every file (build-outputs.ts). It is not an Astro
 * endpoint because Astro holds an endpoint's whole body in memory, and with the incremental build
 * (astro.config.mjs) it collects the body once more to record the route's metadata and copies it
 * into a new response: at 100,000 reviews the body is 140 MB, and those copies would be the
 * build's peak memory. The data is the `siteData()` the pages were rendered from: every
 * build renders the home page, which reads it, so it is always there once the pages are.
 */
export function reviewsJson(): AstroIntegration {
  return {
    name: "public-reviews/reviews-json",
    hooks: {
      "astro:build:generated": async ({ dir }) => {
        const made = madeThisBuild<Promise<SiteData>>(SITE_DATA);
        if (!made)
          throw new Error("reviews.json: no page of this build computed siteData(), so there is no dataset to write");
        const file = path.join(fileURLToPath(dir), "reviews.json");
        await writeDatasetJson(file, (await made).dataset);
        // npm start reads it while the build writes its review log and header manifest.
        await tellParent({ type: "dataset", file });
      },
    },
  };
}

/** `datasetJsonPieces` as a UTF-8 file, one piece in memory at a time. */
export async function writeDatasetJson(file: string, dataset: ReviewsDataset): Promise<void> {
  await writeFile(file, datasetJsonPieces(dataset), "utf8");
}
