import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdir, rm, stat, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { astroCacheDir } from "../../src/config.ts";
import { track } from "./children.ts";
import { sampleTreeRss } from "./proc-rss.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Astro writes its prerender chunks to `<root>/.astro/.prerender`, shared by every build of this
 * checkout, so two builds at once break each other. The tests' build helper serialises with this
 * lock directory; the benchmark takes the same one so it can run beside a test run.
 */
const LOCK = path.join(os.tmpdir(), "public-reviews-astro-build.lock");
/** The test helper treats an older lock as abandoned; a 100,000-review build takes longer, so refresh it. */
const LOCK_REFRESH_MS = 30_000;

/**
 * The origin every benchmark build is made for, and every benchmark server is told: a server whose
 * BASE_URL differs from its build's rebuilds at start-up (sidecar/site-build.ts).
 */
export const BENCH_BASE_URL = "http://localhost:4321";

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

let lockHeld = false;
/** Astro's cache folder of the build in progress, if any. */
let building: string | undefined;

/** astro.config.mjs keys its cache by DIST_DIR; per-run dists would otherwise pile up caches. */
function cacheDirOf(distDir: string): string {
  return path.join(ROOT, astroCacheDir(path.resolve(distDir)));
}

/** Removes the Astro cache of builds into `distDir` (see `astroBuild`'s `keepCache`). */
export async function removeCache(distDir: string): Promise<void> {
  await rm(cacheDirOf(distDir), { recursive: true, force: true });
}

/** For a signal handler about to exit: frees the lock and the cache of a build in progress. */
export function abortBuildSync(): void {
  if (building) rmSync(building, { recursive: true, force: true });
  if (lockHeld) rmSync(LOCK, { recursive: true, force: true });
  lockHeld = false;
}

async function acquireLock(): Promise<() => Promise<void>> {
  for (;;) {
    try {
      await mkdir(LOCK);
      lockHeld = true;
      break;
    } catch {
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > 300_000) await rm(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const keepAlive = setInterval(() => {
    const now = new Date();
    utimes(LOCK, now, now).catch(() => undefined);
  }, LOCK_REFRESH_MS);
  return async () => {
    clearInterval(keepAlive);
    lockHeld = false;
    await rm(LOCK, { recursive: true, force: true });
  };
}

/**
 * Runs a cold `astro build` of `contentDir` into `distDir` (a fresh DIST_DIR means a fresh Astro
 * cache, see astro.config.mjs) and measures it. With `keepCache` the cache stays, so a second build
 * into the same `distDir` is a warm rebuild, as `npm start` makes after an edit; the caller then
 * removes it with `removeCache`. Runs Astro with this process's Node, so the
 * project's Node 24 is used whatever `node` is first on PATH.
 */
export async function astroBuild(
  contentDir: string,
  distDir: string,
  opts: { keepCache?: boolean } = {},
): Promise<BuildRun> {
  const release = await acquireLock();
  building = cacheDirOf(distDir);
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CONTENT_DIR: contentDir,
      DIST_DIR: distDir,
      BASE_URL: BENCH_BASE_URL,
      // A benchmark build pings no hub.
      HUB_URL: "off",
      PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    };
    const started = performance.now();
    const child = track(
      spawn(process.execPath, [path.join(ROOT, "node_modules/astro/bin/astro.mjs"), "build", "--silent"], {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    const sampler = child.pid ? sampleTreeRss(child.pid) : undefined;
    let output = "";
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const code = await new Promise<number>((resolve) => {
      child.on("error", (err) => {
        output += String(err);
        resolve(127);
      });
      child.on("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    });
    const wallMs = performance.now() - started;
    const peakRssBytes = sampler?.stop() ?? 0;
    if (code !== 0) {
      throw new BuildError(`astro build of ${contentDir} exited with ${code}:\n${output.trim().slice(-3000)}`);
    }
    return { distDir, wallMs, peakRssBytes };
  } finally {
    building = undefined;
    if (!opts.keepCache) await removeCache(distDir);
    await release();
  }
}
