import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { lastModifiedMs } from "../content/dataset.ts";
import { MANIFEST_FILE, manifestOf, renderHeadersFile } from "../http-headers/manifest.ts";
import { buildContent } from "../io/build-content.ts";
import { etagDistFiles } from "../io/dist-files.ts";
import { siteUrls } from "../urls.ts";

/**
 * After Astro writes `dist/`, hash every file and write the header manifest (`_headers.json`, read
 * by our server) and `_headers` (read by Netlify/Cloudflare-style CDNs). Last-Modified comes from
 * the reviews this build published (the checked content the pages were built from, held once per
 * build process), so it depends on content only, never on the build's clock. Files are hashed
 * one at a time through one buffer, so the hook never holds the built site in memory.
 */
/**
 * A build bakes its origin into every permalink, feed and ETag, so it never falls back to a local
 * address by accident; `npm start` passes the address it serves for its own builds.
 */
export const MISSING_BASE_URL =
  "BASE_URL is required for a build: set it to the public origin, e.g. BASE_URL=https://reviews.example.com npm run build (npm start sets it to http://localhost:<PORT> for its own builds)";

export function buildOutputs(opts: { baseUrl: string; baseUrlExplicit: boolean }): AstroIntegration {
  return {
    name: "public-reviews/build-outputs",
    hooks: {
      // Only `astro build` needs the real origin; `astro check` and `astro sync` run without one.
      "astro:config:setup": ({ command }) => {
        if (command === "build" && !opts.baseUrlExplicit) {
          // Printed and exited rather than thrown: Astro would wrap a throw in a stack trace.
          process.stderr.write(`${MISSING_BASE_URL}\n`);
          process.exit(1);
        }
      },
      "astro:build:done": async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const ms = lastModifiedMs((await buildContent(logger)).content.reviews);
        const manifest = manifestOf(etagDistFiles(out), {
          urls: siteUrls(opts.baseUrl),
          lastModified: ms === undefined ? undefined : new Date(ms),
        });
        await writeFile(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
        await writeFile(path.join(out, "_headers"), renderHeadersFile(manifest));
        logger.info(`wrote headers for ${Object.keys(manifest.files).length} files`);
      },
    },
  };
}
