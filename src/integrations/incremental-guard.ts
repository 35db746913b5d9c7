import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

/**
 * Keeps Astro's incremental build (`experimental.incrementalBuild`, astro.config.mjs) from copying
 * a page a failed build left behind. Astro keeps a copy of each keyed page in its cache folder and
 * rewrites that copy as soon as it renders the page, but writes the manifest of keys only once
 * every page is done. A build that fails (or is killed) in between leaves the old manifest beside
 * new copies, so a later build whose key matches the old manifest would copy a page rendered from
 * other data. So a marker is written before the pages and removed once the manifest is written
 * (`astro:build:generated`); a build that finds the marker drops the manifest and renders every
 * page, recording a fresh one.
 */

/** Astro's names inside its cache folder (astro/dist/core/build/incremental.js). */
export const INCREMENTAL_MANIFEST = "incremental-build.json";
/** Ours: present while a build is generating pages, and after one that failed doing so. */
export const GENERATING_MARKER = "incremental-build.generating";

export function incrementalGuard(): AstroIntegration {
  let cacheDir: URL | undefined;
  const file = (name: string) => fileURLToPath(new URL(name, cacheDir));
  return {
    name: "public-reviews/incremental-guard",
    hooks: {
      "astro:config:done": ({ config }) => {
        cacheDir = config.cacheDir;
      },
      "astro:build:start": () => {
        if (!cacheDir) return;
        // The last build of this cache failed while generating pages: its manifest is not trusted.
        if (existsSync(file(GENERATING_MARKER))) rmSync(file(INCREMENTAL_MANIFEST), { force: true });
        mkdirSync(fileURLToPath(cacheDir), { recursive: true });
        writeFileSync(file(GENERATING_MARKER), "");
      },
      "astro:build:generated": () => {
        if (cacheDir) rmSync(file(GENERATING_MARKER), { force: true });
      },
    },
  };
}
