import { rmSync } from "node:fs";
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

/**
 * The Astro caches of this run's builds, removed together when the run ends (`removeCaches`), never
 * between two builds. On a file system without a journal, ext4 will not reuse an inode freed in the
 * last minute (six while its inode table block is unwritten) and looks past each one: a cold
 * 10,000-review build that started right after another build's cache was removed spent 28 s of
 * system time instead of 4 (docs/benchmarks-log.md, 2026-12-05).
 */
const caches = new Set<string>();

/** Removes the Astro caches of every build of this run. */
export async function removeCaches(): Promise<void> {
  for (const dir of caches) await rm(dir, { recursive: true, force: true });
  caches.clear();
}

/** For a signal handler about to exit: nothing asynchronous runs after it. */
export function removeCachesSync(): void {
  for (const dir of caches) rmSync(dir, { recursive: true, force: true });
  caches.clear();
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
 * Runs an `astro build` of `contentDir` into `distDir` through the project's one build runner, and
 * measures it: cold for a new `distDir` (each output folder has its own Astro cache), a warm rebuild
 * for one built before, as `npm start` makes after an edit. The build lock lets the benchmark run
 * beside a test run. The cache is kept until the run ends (`removeCaches`).
 */
export async function astroBuild(contentDir: string, distDir: string): Promise<BuildRun> {
  let sampler: RssSampler | undefined;
  caches.add(astroCacheDir(distDir));
  const result = await runAstroBuild({
    distDir,
    contentDir,
    env: { ...process.env, BASE_URL: BENCH_BASE_URL, HUB_URL: "off", ...benchLogEnv(distDir) },
    // Not silent: Astro's log level is part of the pages' code, and npm start (the edit-to-live
    // figure) builds at its default level, as npm run build does (src/build/astro-build.ts).
    lock: true,
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
