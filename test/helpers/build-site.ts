import { constants, rmSync } from "node:fs";
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { astroCacheDir, runAstroBuild } from "../../src/build/astro-build.ts";
import { processAlive, readPidFile } from "../../src/io/process-alive.ts";
import { logOrigin } from "../../src/log/checkpoint.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";
import { contentKey } from "./content-key.ts";
import { distDirList } from "./run-folders.ts";

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
  distDir: string;
}

/**
 * A real `astro build` of `contentDir`, in a fresh temp folder the caller owns (and may change or
 * remove). Without `distDir`, every call of the run with the same content files and `env` gets a
 * copy of one cold build, made by whichever worker asked first; with `distDir`, a build of its own
 * into that folder (for tests that compare two cold builds). Builds that write outside their
 * output folder (a kept LOG_DIR, a hub to ping) are never shared.
 */
export async function buildSite(
  contentDir: string,
  env: Record<string, string> = {},
  distDir?: string,
): Promise<BuildResult> {
  const key = distDir || "LOG_DIR" in env || "HUB_URL" in env ? undefined : await contentKey(contentDir, env);
  if (!key) return coldBuild(contentDir, env, distDir ?? (await tempDistDir()));
  const shared = await sharedBuild(key, contentDir, env);
  const out = await tempDistDir();
  // A copy-on-write clone where the file system has them, a plain copy elsewhere.
  await cp(shared.distDir, out, { recursive: true, mode: constants.COPYFILE_FICLONE });
  return { ...shared, distDir: out };
}

/**
 * `buildSite` of `contentDir` for `env`, which must succeed, and every HTML page of it, keyed by its
 * path below the build (`reviews/x/index.html`), for the tests that read the pages as a visitor would.
 */
export async function builtPages(
  contentDir: string,
  env: Record<string, string>,
): Promise<{ distDir: string; pages: Map<string, string> }> {
  const result = await buildSite(contentDir, env);
  expect(result.code, result.stderr).toBe(0);
  const pages = new Map<string, string>();
  for (const file of await readdir(result.distDir, { recursive: true })) {
    if (file.endsWith(".html")) pages.set(file, await readFile(path.join(result.distDir, file), "utf8"));
  }
  return { distDir: result.distDir, pages };
}

/** Text of an element of a built page with HTML tags dropped and the few entities Astro emits decoded. */
export const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/**
 * For a test file or suite: a `buildSite` of `contentDir` for `env`, which must succeed, made in a
 * `beforeAll` and removed in an `afterAll`. `distDir` is there in its tests and in any `beforeAll`
 * registered after this call; an `afterAll` registered after it runs before the removal.
 */
export function buildBeforeAll(contentDir: string, env: Record<string, string> = {}): { readonly distDir: string } {
  let distDir: string | undefined;
  beforeAll(async () => {
    const result = await buildSite(contentDir, env);
    expect(result.code, result.stderr).toBe(0);
    distDir = result.distDir;
  });
  afterAll(async () => {
    if (distDir) await rm(distDir, { recursive: true, force: true });
  });
  return {
    get distDir() {
      if (!distDir) throw new Error(`no build of ${contentDir} yet: distDir is read before its beforeAll ran`);
      return distDir;
    },
  };
}

async function coldBuild(contentDir: string, env: Record<string, string>, out: string): Promise<BuildResult> {
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

/**
 * The run's one build for `key`, in the run's scratch folder. Workers meet at a folder that
 * `mkdir` creates atomically; the one that made it builds, the others wait for its result, and
 * take over if its process died. A failing build is not kept: each caller sees its own failure.
 */
async function sharedBuild(key: string, contentDir: string, env: Record<string, string>): Promise<BuildResult> {
  const home = path.join(inject("testRun").scratch, "shared-builds", key);
  const resultFile = path.join(home, "result.json");
  await mkdir(path.dirname(home), { recursive: true });
  for (;;) {
    const done = await readFile(resultFile, "utf8").then(
      (t) => JSON.parse(t) as BuildResult,
      () => undefined,
    );
    if (done) return done;
    const mine = await mkdir(home).then(
      () => true,
      () => false,
    );
    if (!mine) {
      const pid = readPidFile(path.join(home, "pid"));
      if (pid !== undefined && !processAlive(pid)) await rm(home, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    await writeFile(path.join(home, "pid"), String(process.pid));
    const result = await coldBuild(contentDir, env, path.join(home, "dist"));
    if (result.code !== 0) {
      const out = await tempDistDir();
      // A build that stops before writing anything leaves no output folder.
      await cp(result.distDir, out, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
      });
      await rm(home, { recursive: true, force: true });
      return { ...result, distDir: out };
    }
    await writeFile(`${resultFile}.part`, JSON.stringify(result));
    await rename(`${resultFile}.part`, resultFile);
    return result;
  }
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
  const dir = await mkdtemp(path.join(inject("testRun").outside, "pr-log-"));
  created.push(dir);
  // LOG_NEW: a test's public origin (reviews.example) never has a published log to continue.
  return { LOG_DIR: dir, LOG_SIGNING_KEY: testLogKey(baseUrl).skey, LOG_NEW: "1" };
}

const created: string[] = [];
// Whatever a test forgot to remove goes when its worker exits; the run's folders go when it ends.
process.on("exit", () => {
  // `npm start` keeps its versioned builds beside DIST_DIR, in `<DIST_DIR>.builds`, and its
  // Astro cache under node_modules/.astro, keyed by DIST_DIR.
  for (const dir of created)
    for (const d of [dir, `${dir}.builds`, `${dir}.served-by`, astroCacheDir(dir)])
      rmSync(d, { recursive: true, force: true });
});

/**
 * A fresh output folder in the run's scratch folder inside the project (test/helpers/run-folders.ts
 * says why inside), so concurrent builds (tests, npm start) never overwrite each other's chunks.
 */
export async function tempDistDir(prefix = "pr-dist-"): Promise<string> {
  const { scratch } = inject("testRun");
  const dir = await mkdtemp(path.join(scratch, prefix));
  created.push(dir);
  await appendFile(distDirList(scratch), `${dir}\n`);
  return dir;
}

/** The header files of a build: the only ones whose bytes depend on when it was built (Last-Modified). */
export const HEADER_FILES = ["/_headers.json", "/_headers"] as const;

/** A `_headers.json` manifest's files without their Last-Modified, to compare two builds' headers. */
export function undatedHeaders(manifest: { files: Record<string, { last_modified?: string }> }) {
  return Object.fromEntries(Object.entries(manifest.files).map(([p, { last_modified: _t, ...h }]) => [p, h]));
}
