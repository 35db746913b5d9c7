import { rmSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT as ROOT, runAstroBuild } from "../../src/build/astro-build.ts";
import { logOrigin } from "../../src/log/checkpoint.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
  distDir: string;
}

/**
 * Runs a real `astro build` of `contentDir` into a fresh temp folder. Builds share Astro's
 * prerender folder, so they are serialised across vitest workers with the build lock.
 */
export async function buildSite(
  contentDir: string,
  env: Record<string, string> = {},
  distDir?: string,
): Promise<BuildResult> {
  const out = distDir ?? (await tempDistDir());
  const base = env.BASE_URL ?? "http://localhost:4321";
  const result = await runAstroBuild({
    distDir: out,
    contentDir,
    env: {
      ...process.env,
      // vitest exports Vite's BASE_URL ("/") into process.env; builds get the real default.
      BASE_URL: base,
      // A build in a test must never ping a real hub.
      HUB_URL: env.HUB_URL ?? "http://127.0.0.1:9/api/websub/hub",
      // Each build starts a new review log (so it compares with a cold build) under a fixed key
      // (so two builds of the same content give the same bytes), unless the test keeps one.
      ...(await freshLogEnv(base)),
      ...env,
    },
    silent: true,
    lock: true,
    dropCache: true,
  });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, distDir: out };
}

/** A fixed review-log key for the origin of `baseUrl`, the same in every test run. */
export function testLogKey(baseUrl: string): { skey: string; vkey: string } {
  return generateKeyPair(logOrigin(baseUrl.replace(/\/+$/, "")), new Uint8Array(32).fill(42));
}

/**
 * The environment of a build that starts a new review log under the fixed test key, for tests
 * that run `runAstroBuild` themselves: never the project's DATA_DIR, and comparable with `buildSite`.
 */
export async function freshLogEnv(
  baseUrl: string,
): Promise<{ LOG_DIR: string; LOG_SIGNING_KEY: string; LOG_NEW: string }> {
  // LOG_NEW: a test's public origin (reviews.example) never has a published log to continue.
  return { LOG_DIR: await tempDistDir("pr-log-"), LOG_SIGNING_KEY: testLogKey(baseUrl).skey, LOG_NEW: "1" };
}

const created: string[] = [];
// Whatever a test forgot to remove goes when its worker exits.
process.on("exit", () => {
  // `npm start` keeps its versioned builds beside DIST_DIR, in `<DIST_DIR>.builds`.
  for (const dir of created)
    for (const d of [dir, `${dir}.builds`, `${dir}.served-by`]) rmSync(d, { recursive: true, force: true });
});

/**
 * A fresh output folder inside the project. Astro writes its prerender chunks under the output
 * folder when that is inside the working directory, and under the shared `.astro/` otherwise;
 * a folder here keeps concurrent builds (tests, npm start) from overwriting each other's chunks.
 */
export async function tempDistDir(prefix = "pr-dist-"): Promise<string> {
  const base = path.join(ROOT, ".tmp");
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(path.join(base, prefix));
  created.push(dir);
  return dir;
}
