import { rm } from "node:fs/promises";
import path from "node:path";
import { abortAstroBuildSync, astroCacheDir, PROJECT_ROOT, runAstroBuild } from "../../src/build/astro-build.ts";
import { logOrigin } from "../../src/log/checkpoint.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";
import { track } from "./children.ts";
import { type RssSampler, sampleTreeRss } from "./proc-rss.ts";

export const ROOT = PROJECT_ROOT;

/**
 * The origin every benchmark build is made for, and every benchmark server is told: a server whose
 * BASE_URL differs from its build's rebuilds at start-up (sidecar/build/site-build.ts).
 */
export const BENCH_BASE_URL = "http://localhost:4321";

/** The review log's signing key of this benchmark run. */
const BENCH_LOG_KEY = generateKeyPair(logOrigin(BENCH_BASE_URL)).skey;

/**
 * Each output folder keeps its own review log beside it (a warm rebuild appends to it), signed
 * with one key per benchmark run, so a benchmark never touches the project's DATA_DIR. A server
 * over that folder is given the same, as npm start shares npm run build's LOG_DIR and key: with
 * another log every review's nonce, and so every page, would change.
 */
export function benchLogEnv(distDir: string): { LOG_DIR: string; LOG_SIGNING_KEY: string } {
  return { LOG_DIR: `${distDir}-log`, LOG_SIGNING_KEY: BENCH_LOG_KEY };
}

/** Removes the Astro cache of builds into `distDir` (see `astroBuild`'s `keepCache`). */
export async function removeCache(distDir: string): Promise<void> {
  await rm(astroCacheDir(distDir), { recursive: true, force: true });
}

export interface BuildRun {
  distDir: string;
  /** Wall time of the build process, excluding the wait for the lock. */
  wallMs: number;
  /** Peak RSS of the build process tree, bytes. */
  peakRssBytes: number;
}

export class BuildError extends Error {
  override name = "BuildError";
}

/** For a signal handler about to exit: frees the lock and the cache of a build in progress. */
export const abortBuildSync = abortAstroBuildSync;

/**
 * Runs a cold `astro build` of `contentDir` into `distDir` (a fresh DIST_DIR means a fresh Astro
 * cache) through the project's one build runner, and measures it. The build lock lets the
 * benchmark run beside a test run. With `keepCache` the cache stays, so a second build into the
 * same `distDir` is a warm rebuild, as `npm start` makes after an edit; the caller then removes it
 * with `removeCache`.
 */
export async function astroBuild(
  contentDir: string,
  distDir: string,
  opts: { keepCache?: boolean } = {},
): Promise<BuildRun> {
  let sampler: RssSampler | undefined;
  const result = await runAstroBuild({
    distDir,
    contentDir,
    env: { ...process.env, BASE_URL: BENCH_BASE_URL, HUB_URL: "off", ...benchLogEnv(distDir) },
    // Not silent: Astro's log level is part of the pages' code, and npm start (the edit-to-live
    // figure) builds at its default level, as npm run build does (src/build/astro-build.ts).
    lock: true,
    dropCache: !opts.keepCache,
    onSpawn: (child) => {
      track(child);
      if (child.pid) sampler = sampleTreeRss(child.pid);
    },
  });
  const peakRssBytes = sampler?.stop() ?? 0;
  if (result.code !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim().slice(-3000);
    throw new BuildError(
      `astro build of ${path.relative(ROOT, contentDir) || contentDir} exited with ${result.code}:\n${output}`,
    );
  }
  return { distDir, wallMs: result.wallMs, peakRssBytes };
}
