import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import {
  type HeadersManifest,
  MANIFEST_FILE,
  manifestJson,
  manifestOf,
  renderHeadersFile,
} from "../http-headers/manifest.ts";
import { distPath, etagDistFiles, readManifest } from "../io/dist-files.ts";
import { readEtagMemo, saveEtagMemo } from "../io/etag-memo.ts";
import { fileIdentity } from "../io/file-identity.ts";
import { type FolderManifest, readFolderManifest } from "../io/folder-manifest.ts";
import { siteUrls } from "../urls.ts";

/**
 * After Astro writes `dist/`, hash every file and write the header manifest (`_headers.json`, read
 * by our server) and `_headers` (read by Netlify/Cloudflare-style CDNs). Last-Modified is when a
 * file's bytes last changed (src/http-headers/last-modified.ts): carried over from the previous
 * build's manifest, read before Astro empties the output folder, for every unchanged file, and the
 * build's time for the rest. Files are hashed one at a time through one buffer, so the hook never
 * holds the built site in memory, and only those the build wrote (src/io/etag-memo.ts,
 * src/io/folder-manifest.ts).
 */
/**
 * A build bakes its origin into every permalink, feed and ETag, so it never falls back to a local
 * address by accident; `npm start` passes the address it serves for its own builds.
 */
export const MISSING_BASE_URL =
  "BASE_URL is required for a build: set it to the public origin, e.g. BASE_URL=https://reviews.example.com npm run build (npm start sets it to http://localhost:<PORT> for its own builds)";

/**
 * The manifest this process wrote last, with its file's identity. npm start's build worker runs
 * build after build, each following the one before: the earlier manifest is then the one it wrote,
 * and parsing and checking it again took about 50 ms of every save at 10,000 reviews.
 */
let lastWritten: { id: string; manifest: HeadersManifest } | undefined;

/** The header manifest of the build in `dir`: the one this process wrote there, or read and checked. */
async function previousManifest(dir: string): Promise<HeadersManifest> {
  const id = fileIdentity(distPath(dir, `/${MANIFEST_FILE}`));
  if (id !== undefined && lastWritten?.id === id) return lastWritten.manifest;
  return readManifest(dir);
}

export function buildOutputs(opts: {
  baseUrl: string;
  baseUrlExplicit: boolean;
  /**
   * The folder holding the build this one follows: DIST_DIR for a build in place, the served
   * build for npm start's versioned builds (see astro.config.mjs).
   */
  previousDir: string;
}): AstroIntegration {
  let previous: HeadersManifest | undefined;
  let cacheDir: string | undefined;
  let building = false;
  let listed: FolderManifest | undefined;
  return {
    name: "public-reviews/build-outputs",
    hooks: {
      // Only `astro build` needs the real origin; `astro check` and `astro sync` run without one.
      "astro:config:setup": async ({ command }) => {
        if (command !== "build") return;
        building = true;
        if (!opts.baseUrlExplicit) {
          // Printed and exited rather than thrown: Astro would wrap a throw in a stack trace.
          process.stderr.write(`${MISSING_BASE_URL}\n`);
          process.exit(1);
        }
        // No previous build, or an unreadable one: every file gets this build's time.
        previous = await previousManifest(opts.previousDir).catch(() => undefined);
      },
      "astro:config:done": ({ config }) => {
        cacheDir = fileURLToPath(config.cacheDir);
        // Before the build touches the folder: its manifest vouches for the files left as they were.
        if (building) listed = readFolderManifest(fileURLToPath(config.outDir));
      },
      "astro:build:done": async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const memo = cacheDir ? readEtagMemo(cacheDir) : undefined;
        const files = etagDistFiles(out, memo?.known, listed);
        listed = undefined;
        const manifest = manifestOf(files, {
          urls: siteUrls(opts.baseUrl),
          builtAt: new Date(),
          previous,
        });
        const file = path.join(out, MANIFEST_FILE);
        await writeFile(file, manifestJson(manifest));
        const id = fileIdentity(file);
        lastWritten = id === undefined ? undefined : { id, manifest };
        await writeFile(path.join(out, "_headers"), renderHeadersFile(manifest));
        if (cacheDir && memo) saveEtagMemo(cacheDir, memo, files);
        logger.info(`wrote headers for ${Object.keys(manifest.files).length} files`);
      },
    },
  };
}
