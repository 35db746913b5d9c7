import {
  type BigIntStats,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { MANIFEST_FILE } from "../http-headers/manifest.ts";
import { listDistFiles } from "../io/dist-files.ts";
import { fileIdentity, identityOf } from "../io/file-identity.ts";
import { processAlive } from "../io/process-alive.ts";
import { workerResult } from "../io/worker-result.ts";

/**
 * What the output folder holds between builds. Astro's incremental build keeps a page whose key is
 * unchanged if its file is already in the output folder, and otherwise copies it from its cache
 * one file at a time (4 s of a 10,000-review rebuild); so Astro no longer empties the folder
 * (`vite.build.emptyOutDir: false`, astro.config.mjs) and this module owns it instead:
 *
 * - **In place:** a folder that holds the last complete build of this Astro cache (recorded by
 *   `record`, checked by the identity of its `_headers.json`) is kept as it is.
 * - **Otherwise** (another build's folder, a failed build's) it is emptied: renamed aside and removed
 *   while the build runs. An empty folder (npm start's fresh one per build) is then filled in bulk
 *   with the cache's copies of the keyed pages, which Astro would otherwise copy one by one.
 * - **After the pages,** every file that was there at the start, was not written by this build and
 *   is no route's output is removed (a deleted review's page, old hashed assets), so the folder is
 *   file for file what a cold build writes (test/e2e/incremental-build.test.ts).
 */

/** Astro's copies of the keyed pages inside its cache folder (astro/dist/core/build/incremental.js). */
const CACHED_PAGES = "dist";
/** Ours, in the cache folder: which output folder holds this cache's last complete build. */
const RECORD = "out-dir.json";
const ASIDE = ".emptying-";

/** A file as found: a build that writes it changes its modification time. */
type Seen = Map<string, string>;
const identity = (file: string) => identityOf(statSync(file, { bigint: true }));

/** Lists the output folder on a thread of its own (`seeFilesAside`); resolved from the project root, as the build runs there. */
const SEE_WORKER = path.resolve("src/integrations/see-files-worker.ts");
/** Ours, for a moment in the output folder when a build starts (`markStart`). */
const START_MARK = ".out-dir-start";

/** The sibling an output folder is renamed to; the pid says whether its remover still runs. */
const asideName = (dir: string, pid: number) => path.join(path.dirname(dir), `.${path.basename(dir)}${ASIDE}${pid}`);

/**
 * Renames `dir` aside, puts an empty folder with its mode in its place and starts removing the old
 * tree; resolves when it is gone. Undefined when the folder cannot be set aside: it is missing or
 * empty, a symbolic link (renaming would replace the link with a folder), holds `.git`, or cannot
 * be renamed (a mount point, a read-only parent); `emptyInPlace` is then the way.
 */
export function emptyAside(dir: string): Promise<void> | undefined {
  let mode: number;
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    const names = readdirSync(dir);
    if (names.length === 0 || names.includes(".git")) return undefined;
    mode = stat.mode & 0o7777;
  } catch {
    return undefined;
  }
  const aside = asideName(dir, process.pid);
  try {
    renameSync(dir, aside);
  } catch {
    return undefined;
  }
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    // Put the old folder back rather than leave no output folder at all.
    renameSync(aside, dir);
    throw err;
  }
  return Promise.all([rm(aside, { recursive: true, force: true, maxRetries: 3 }), removeStale(dir)]).then(() => {});
}

/** Empties `dir` where it is, but for `.git`, as Astro's own emptying did. */
export function emptyInPlace(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name !== ".git") rmSync(path.join(dir, name), { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Folders set aside by builds that ended before removing them (killed, or failed mid-way). */
async function removeStale(dir: string): Promise<void> {
  const prefix = `.${path.basename(dir)}${ASIDE}`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(dir)).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (pid === process.pid || (Number.isInteger(pid) && processAlive(pid))) continue;
    await rm(path.join(path.dirname(dir), name), { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Every file below `dir` but `.git`, by absolute path, with its identity. A file gone between the
 * listing and its identity (the build's own `.prerender/` chunks, removed while a worker lists the
 * folder beside the build) was no earlier build's to prune, and is skipped: a stat of it had failed
 * the build.
 */
export function seeFiles(dir: string): Seen {
  const seen: Seen = new Map();
  let files: ReturnType<typeof listDistFiles>;
  try {
    files = listDistFiles(dir);
  } catch (error) {
    // A folder of them removed while it was walked: walked again, without it.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !existsSync(dir)) throw error;
    files = listDistFiles(dir);
  }
  for (const f of files) {
    if (f.path.startsWith("/.git/")) continue;
    const id = fileIdentity(f.abs);
    if (id !== undefined) seen.set(f.abs, id);
  }
  return seen;
}

/**
 * `seeFiles` on a worker thread: listing and reading 10,000 folders (about 0.25 s at 10,000 reviews)
 * overlaps the build's bundling instead of delaying it. The build may write into the folder before
 * the worker gets to a file; such a file has a modification time from after the build's start, so
 * `pruneUnwritten`, given `since`, counts it as written. Where the worker's source is not at hand,
 * the folder is listed on this thread.
 */
export function seeFilesAside(dir: string): Promise<Seen> {
  if (!existsSync(SEE_WORKER)) return Promise.resolve(seeFiles(dir));
  return workerResult<Seen>(SEE_WORKER, dir, `the worker listing ${dir}`);
}

/**
 * The time a build starts, as the file system holding `dir` stamps files (its clock and its
 * granularity): the modification time of a file written there and removed at once.
 */
export function markStart(dir: string): bigint {
  const file = path.join(dir, START_MARK);
  writeFileSync(file, "");
  try {
    return statSync(file, { bigint: true }).mtimeNs;
  } finally {
    unlinkSync(file);
  }
}

/**
 * Removes each file of `before` that is unchanged (not written since, nor modified at or after
 * `since` when given) and not in `keep`, then the folders that held only such files. Returns how
 * many files went.
 */
export function pruneUnwritten(dir: string, before: Seen, keep: ReadonlySet<string>, since?: bigint): number {
  // Astro names its output folder by a URL, whose path ends in a separator: without it, no folder
  // would be found below `root + path.sep`.
  const root = path.resolve(dir);
  let removed = 0;
  const folders = new Set<string>();
  for (const [file, was] of before) {
    if (keep.has(file)) continue;
    let now: BigIntStats;
    try {
      now = statSync(file, { bigint: true });
    } catch {
      continue; // gone already
    }
    if (identityOf(now) !== was || (since !== undefined && now.mtimeNs >= since)) continue;
    unlinkSync(file);
    removed++;
    for (let d = path.dirname(file); d.startsWith(root + path.sep); d = path.dirname(d)) folders.add(d);
  }
  // Deepest first, so a folder is tried once its subfolders are gone; a folder still in use stays.
  for (const d of [...folders].sort((a, b) => b.length - a.length)) {
    if (readdirSync(d).length === 0) rmdirSync(d);
  }
  return removed;
}

/** The record `record` writes: the output folder and what its `_headers.json` was. */
function headersIdentity(outDir: string): { dir: string; headers: string } | undefined {
  try {
    return { dir: realpathSync(outDir), headers: identity(path.join(outDir, MANIFEST_FILE)) };
  } catch {
    return undefined;
  }
}

/**
 * The folder holding this cache's last complete build, by its real path, if it is still as that
 * build left it. Found by the recorded `_headers.json`, which a rename keeps: npm start moves a
 * build made in DIST_DIR into its builds folder and links it back (sidecar/build/site-build.ts).
 */
export function lastBuildFolder(cacheDir: string): string | undefined {
  let recorded: { dir?: unknown; headers?: unknown };
  try {
    recorded = JSON.parse(readFileSync(path.join(cacheDir, RECORD), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof recorded.dir !== "string") return undefined;
  const now = headersIdentity(recorded.dir);
  return now && now.headers === recorded.headers ? now.dir : undefined;
}

/** Whether `outDir` holds the last complete build of the cache in `cacheDir`, untouched since. */
export function holdsLastBuild(cacheDir: string, outDir: string): boolean {
  const last = lastBuildFolder(cacheDir);
  return last !== undefined && last === headersIdentity(outDir)?.dir;
}

/** Records that `outDir` holds this cache's last complete build (every build rewrites `_headers.json`). */
export function recordLastBuild(cacheDir: string, outDir: string): void {
  const now = headersIdentity(outDir);
  if (now) writeFileSync(path.join(cacheDir, RECORD), JSON.stringify(now));
}

/**
 * The two integrations: `prepare` first (it readies the folder when the build starts and prunes it
 * once the pages are written, before the other integrations add their files), `record` last (once
 * every file of a complete build is written).
 */
export function outDir(): { prepare: AstroIntegration; record: AstroIntegration } {
  let out: string | undefined;
  let cache: string | undefined;
  let before: Promise<Seen> = Promise.resolve(new Map());
  let since: bigint | undefined;
  let removal: Promise<void> | undefined;
  const prepare: AstroIntegration = {
    name: "public-reviews/out-dir",
    hooks: {
      "astro:config:done": ({ config }) => {
        out = fileURLToPath(config.outDir);
        cache = fileURLToPath(config.cacheDir);
      },
      "astro:build:start": () => {
        if (!out || !cache) return;
        mkdirSync(out, { recursive: true });
        if (readdirSync(out).length > 0 && !holdsLastBuild(cache, out)) {
          removal = emptyAside(out);
          if (!removal) emptyInPlace(out);
        }
        const copies = path.join(cache, CACHED_PAGES);
        if (readdirSync(out).every((n) => n === ".git") && existsSync(copies)) {
          // Timestamps kept: a copy this build does not write again must look unwritten to the pruning.
          cpSync(copies, out, { recursive: true, preserveTimestamps: true });
        }
        since = markStart(out);
        before = seeFilesAside(out);
        // Awaited at the end; a build that fails first must not end on this promise's rejection.
        before.catch(() => undefined);
      },
      "astro:build:done": async ({ dir, assets }) => {
        const keep = new Set<string>();
        for (const urls of assets.values()) for (const u of urls) keep.add(fileURLToPath(u));
        pruneUnwritten(fileURLToPath(dir), await before, keep, since);
        before = Promise.resolve(new Map());
        await removal;
      },
    },
  };
  const record: AstroIntegration = {
    name: "public-reviews/out-dir-record",
    hooks: {
      "astro:build:done": () => {
        if (out && cache) recordLastBuild(cache, out);
      },
    },
  };
  return { prepare, record };
}
