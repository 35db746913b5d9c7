import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { realpathSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import type { AstroBuildWorker } from "./astro-worker.ts";
import { type BuildNotice, BuildNoticeSchema } from "./astro-worker-protocol.ts";
import { acquireBuildLock } from "./build-lock.ts";

/**
 * The one way to run `astro build`: `npm start`'s rebuilds, the tests' builds and the benchmark
 * all come through here, so the child's environment, the Node binary and the cache folder cannot
 * drift between them.
 */

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The young generation capped at 32 MiB a semi-space. V8 sizes it from the machine's memory (64 MiB
 * a semi-space on the 24 GB bench machine), and a build's garbage, which lives for one page or one
 * review, does not need that much: at 10,000 reviews the cap lowered a cold build's peak from about
 * 830 to 670 MiB and npm start's build worker's from 1.0–1.2 to 0.86 GiB, and a rebuild's time by
 * about 0.1 s (docs/benchmarks-log.md, 2026-12-04, ninth session).
 */
export const YOUNG_GENERATION = "--max-semi-space-size=32";

/**
 * Node's flags for a one-off build process: `npm run build` (package.json passes the same, and a
 * test holds the two equal), the tests' and the benchmark's builds. A build is one batch of
 * short-lived garbage over a large live heap (the content, the records, the analyses): with V8's
 * own growing factor the heap ran to about twice the live data between full collections, 1.9 GiB
 * at 100,000 reviews; growing it by a fifth at most kept the build under 1.5 GiB for about a tenth
 * more CPU (docs/benchmarks-log.md, 2026-12-04). Starting the old generation at 256 MiB spares the
 * small and middle builds the collections of a heap growing from nothing (0.2–0.3 s of a 100-review
 * build and of a 10,000-review rebuild; the same log, ninth session), and the young generation is
 * capped (`YOUNG_GENERATION`). npm start's long-lived build worker takes only the cap
 * (src/build/astro-worker.ts).
 */
export const BUILD_NODE_FLAGS: readonly string[] = [
  "--heap-growing-percent=20",
  "--initial-old-space-size=256",
  YOUNG_GENERATION,
  // Rolldown's allocator gives back what the bundling freed (native-memory.ts, which npm start's
  // build worker preloads too); relative to the project root, where these builds run.
  "--import",
  "./src/build/native-memory.ts",
];

/**
 * Why Astro cannot build into `distDir` (DIST_DIR), or undefined. A folder whose path begins with
 * the project's without being inside it (/srv/reviews-dist beside /srv/reviews) is taken by Astro
 * for one inside the project (`getOutDirWithinCwd` compares the paths as text): it puts the
 * build's server chunks there, and every build fails to import the project's packages. The project
 * folder, or one holding it, would have npm start move the checkout aside as an earlier build.
 */
export function outDirProblem(distDir: string, root = PROJECT_ROOT): string | undefined {
  const abs = path.resolve(distDir);
  const rel = path.relative(root, abs);
  if (rel === "" || root.startsWith(abs.endsWith(path.sep) ? abs : `${abs}${path.sep}`))
    return `DIST_DIR must not be the project folder or hold it, got ${JSON.stringify(abs)}: choose e.g. ${path.join(root, "dist")}`;
  if (abs.startsWith(root) && rel.startsWith(".."))
    return `DIST_DIR must not begin with the project folder's path (${root}) unless it is inside it (Astro takes it for a folder of the project, and the build fails), got ${JSON.stringify(abs)}: choose e.g. ${path.join(root, "dist")}, or a folder named otherwise`;
  return undefined;
}

/**
 * Why a build or npm start may not use the configured DIST_DIR, or undefined: `outDirProblem`, and
 * a DIST_DIR that every build would empty over what it must keep: one that is or holds the content,
 * DATA_DIR or LOG_DIR, or lies inside the content or the review logs and keys (a build into
 * DIST_DIR=content deleted every review file and business.yaml).
 */
export function distDirProblem(
  config: Pick<Config, "DIST_DIR" | "CONTENT_DIR" | "DATA_DIR" | "LOG_DIR">,
  root = PROJECT_ROOT,
): string | undefined {
  const outDir = outDirProblem(config.DIST_DIR, root);
  if (outDir !== undefined) return outDir;
  const dist = path.resolve(config.DIST_DIR);
  const rel = (child: string, parent: string) => {
    const r = path.relative(parent, child);
    return r === "" || !(r.startsWith("..") || path.isAbsolute(r));
  };
  // As written and as the file system resolves them: a DIST_DIR that is a link to the content is the content.
  const within = (child: string, parent: string) => rel(child, parent) || rel(realPath(child), realPath(parent));
  // [what, folder, whether a DIST_DIR inside it would empty part of it that matters]
  const kept: [string, string | undefined, boolean][] = [
    ["CONTENT_DIR", config.CONTENT_DIR, true],
    ["DATA_DIR", config.DATA_DIR, false],
    ["DATA_DIR's review logs", path.join(config.DATA_DIR, "log"), true],
    ["DATA_DIR's log keys", path.join(config.DATA_DIR, "log-keys"), true],
    ["LOG_DIR", config.LOG_DIR, true],
  ];
  for (const [name, dir, inside] of kept) {
    if (dir === undefined) continue;
    const at = path.resolve(dir);
    if (within(at, dist) || (inside && within(dist, at)))
      return `DIST_DIR must not be ${name} (${at}), hold it${inside ? " or be inside it" : ""}: each build empties DIST_DIR, got ${JSON.stringify(dist)}`;
  }
  return undefined;
}

/** `p` with its links resolved, as far as it exists: the rest of it is joined as written. */
function realPath(p: string): string {
  const abs = path.resolve(p);
  const parent = path.dirname(abs);
  try {
    return realpathSync.native(abs);
  } catch {
    return parent === abs ? abs : path.join(realPath(parent), path.basename(abs));
  }
}

/** Where Astro's command line is, run with `node` rather than through its `.bin` shim so the flags above apply. */
export const ASTRO_BIN = "node_modules/astro/bin/astro.mjs";

/**
 * Astro's cache folder for builds keyed by `key` (default: the output folder). One cache per key
 * lets builds into different folders run at once without sharing a content store; `npm start`
 * keys every versioned build by its stable DIST_DIR so a rebuild reuses the previous one's cache.
 * astro.config.mjs calls this too, so both sides agree on the folder.
 */
export function astroCacheDir(key: string, root = PROJECT_ROOT): string {
  const hash = createHash("sha256").update(path.resolve(key)).digest("hex").slice(0, 12);
  return path.join(root, "node_modules", ".astro", hash);
}

export interface AstroBuildOptions {
  /** Output folder (DIST_DIR of the child). */
  distDir: string;
  /**
   * The checkout to build, default this one. Two builds of one checkout at once break each other in
   * its `.astro/` folder (the build lock waits for that); a test runs two at once as two clones would.
   */
  root?: string;
  /** CONTENT_DIR of the child; default: whatever `env` says. */
  contentDir?: string;
  /** Base environment; default `process.env`. DIST_DIR, CONTENT_DIR and the cache key are set on top. */
  env?: NodeJS.ProcessEnv;
  /** Cache key (see `astroCacheDir`); default `distDir`. */
  cacheKey?: string;
  /** `inherit` forwards the build's output to this process's stderr; `capture` keeps it for the result. */
  output?: "inherit" | "capture";
  /**
   * Pass `--silent` to Astro. Only with `dropCache`: Astro bakes its log level into the pages' code
   * (its `virtual:astro:logger` module), so a build at another level than the last build of the
   * same cache renders every page again instead of keeping them (docs/site.md).
   */
  silent?: boolean;
  /** Take the cross-process build lock (tests and the benchmark build from one checkout at once). */
  lock?: boolean;
  /** Remove the cache afterwards (one-off output folders would otherwise pile up caches). */
  dropCache?: boolean;
  /** Aborting ends the build (SIGTERM): a server shutting down must not leave one running. */
  signal?: AbortSignal;
  /** Called with each notice of the build (src/build/build-channel.ts) as it arrives, before the build ends. */
  onNotice?: (notice: BuildNotice) => void;
  /** Called with the child right after it starts (the benchmark samples its RSS); not with `worker`. */
  onSpawn?: (child: ChildProcess) => void;
  /**
   * Run the build in this long-lived process (`npm start`'s rebuilds, src/build/astro-worker.ts)
   * instead of a fresh `astro build`. Where its output goes is the worker's choice (its `output`
   * option), so `output` is ignored; captured output comes back as the result's `stdout`.
   */
  worker?: AstroBuildWorker;
}

export interface AstroBuildResult {
  /** Exit code; 128 + n style codes are reported as 128 when a signal ended the build. */
  code: number;
  /**
   * Why the build failed, as the build itself said over its channel (src/build/build-channel.ts):
   * the content's problems, each naming file, line and field. Undefined when the build succeeded or
   * failed for another reason (then `stdout`/`stderr` hold what it printed).
   */
  problems?: string[];
  /** Review files the build left out as scaffolds (UNFINISHED_REVIEWS=skip). */
  leftOut: string[];
  stdout: string;
  stderr: string;
  /** Wall time of the build process, excluding the wait for the lock, in ms. */
  wallMs: number;
}

/** Captured output is bounded: a failing build of 100,000 reviews can print megabytes. */
const MAX_CAPTURE = 64 * 1024;
const keepTail = (acc: string, chunk: Buffer) => (acc + chunk.toString()).slice(-MAX_CAPTURE);

/** The environment of a build: `opts.env` (default `process.env`) with the build's own variables on top. */
export function astroBuildEnv(
  opts: Pick<AstroBuildOptions, "distDir" | "contentDir" | "env" | "cacheKey">,
): NodeJS.ProcessEnv {
  const base = opts.env ?? process.env;
  const bin = path.join(PROJECT_ROOT, "node_modules", ".bin");
  return {
    // Astro's CLI posts usage data after every build, a failed one too, with a fetch that has no
    // timeout: a build this project starts never calls out (a caller's own setting still wins).
    ASTRO_TELEMETRY_DISABLED: "1",
    ...base,
    PATH: `${bin}${path.delimiter}${base.PATH ?? ""}`,
    DIST_DIR: opts.distDir,
    ASTRO_CACHE_KEY: opts.cacheKey ?? opts.distDir,
    ...(opts.contentDir ? { CONTENT_DIR: opts.contentDir } : {}),
  };
}

let active: { cacheDir?: string; release?: () => void } | undefined;

/**
 * Runs `astro build` in a child process with this process's Node (so the project's Node 24 is
 * used whatever `node` is first on PATH), or in `opts.worker`, a long-lived one started the same
 * way with the same environment. Resolves with the exit code and output; never rejects for a
 * failing build.
 */
export async function runAstroBuild(opts: AstroBuildOptions): Promise<AstroBuildResult> {
  if (opts.silent && !opts.dropCache)
    throw new Error("runAstroBuild: silent is only for builds whose cache is dropped");
  const root = opts.root ?? PROJECT_ROOT;
  const cacheKey = opts.cacheKey ?? opts.distDir;
  const release = opts.lock ? await acquireBuildLock() : undefined;
  active = { cacheDir: opts.dropCache ? astroCacheDir(cacheKey, root) : undefined, release };
  try {
    const env = astroBuildEnv(opts);
    const started = performance.now();
    if (opts.worker) {
      const {
        code,
        output = "",
        notices,
      } = await opts.worker.run({ env, silent: opts.silent === true, signal: opts.signal, onNotice: opts.onNotice });
      return { code, ...fromNotices(notices), stdout: output, stderr: "", wallMs: performance.now() - started };
    }
    const args = [...BUILD_NODE_FLAGS, path.join(root, ASTRO_BIN), "build", ...(opts.silent ? ["--silent"] : [])];
    const capture = opts.output !== "inherit";
    const child = spawn(process.execPath, args, {
      cwd: root,
      env,
      // The channel carries the build's notices (build-channel.ts).
      stdio: ["ignore", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit", "ipc"],
      signal: opts.signal,
    });
    opts.onSpawn?.(child);
    const notices: BuildNotice[] = [];
    child.on("message", (raw: unknown) => {
      const notice = BuildNoticeSchema.safeParse(raw);
      if (!notice.success) return;
      notices.push(notice.data);
      opts.onNotice?.(notice.data);
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout = keepTail(stdout, d);
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr = keepTail(stderr, d);
    });
    const code = await new Promise<number>((resolve) => {
      child.on("error", (err) => {
        stderr += String(err);
        resolve(127);
      });
      child.on("close", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
    });
    return { code, ...fromNotices(notices), stdout, stderr, wallMs: performance.now() - started };
  } finally {
    if (opts.dropCache) await rm(astroCacheDir(cacheKey, root), { recursive: true, force: true });
    active = undefined;
    release?.();
  }
}

function fromNotices(notices: readonly BuildNotice[]): Pick<AstroBuildResult, "problems" | "leftOut"> {
  const problems = notices.flatMap((n) => (n.type === "problems" ? [n.problems] : []))[0];
  return { problems, leftOut: [...new Set(notices.flatMap((n) => (n.type === "left-out" ? n.files : [])))] };
}

/** For a signal handler about to exit: frees the lock and the dropped cache of a build in progress. */
export function abortAstroBuildSync(): void {
  if (!active) return;
  if (active.cacheDir) rmSync(active.cacheDir, { recursive: true, force: true });
  active.release?.();
  active = undefined;
}
