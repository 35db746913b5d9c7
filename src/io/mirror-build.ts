import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";
import { copyFile, cp, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { MANIFEST_FILE } from "../http-headers/manifest.ts";
import { distPath, readManifest } from "./dist-files.ts";
import { changedSince } from "./folder-manifest.ts";

/**
 * Makes one complete build's folder a copy of another's by changing only what differs: npm start
 * turns the build it retired into the next build's folder (sidecar/build/site-build.ts) rather
 * than copying a whole site into an empty one.
 *
 * What differs is read from the two header manifests, which name every file of a build but
 * themselves, each with a SHA-256 of its bytes: nothing is listed, read or hashed. So `to` must be
 * as its build left it (npm start's own folders are never written once built). It runs in the
 * process that serves, so it never holds the event loop for more than a batch of files (`inBatches`).
 */

/** The files a build writes beside its header manifest, and outside it. */
const HEADER_FILES = [`/${MANIFEST_FILE}`, "/_headers"];

export interface MirrorResult {
  copied: number;
  removed: number;
  kept: number;
}

/** Removes `dir` and its parents up to `root` while they are empty. */
async function removeEmpty(dir: string, root: string): Promise<void> {
  for (let d = dir; d.startsWith(root + path.sep); d = path.dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return; // not empty (or already gone): nothing further up is empty either
    }
  }
}

/**
 * Whether any file of the complete build in `dir` was modified after its header manifest was
 * written, or is missing: an `npm run build` folder someone edited by hand (or is still writing).
 */
export async function editedSinceBuilt(dir: string): Promise<boolean> {
  const { files } = await readManifest(dir);
  return (await editedSince(dir, Object.keys(files))).size > 0;
}

/** How long one turn of the event loop may spend on files (`inBatches`), in ms. */
const TURN_MS = 10;

/**
 * `each` of `items`, synchronously, for at most `TURN_MS` per turn of the event loop, not through
 * the thread pool: npm start may be copying a whole site for a spare meanwhile
 * (sidecar/build/site-build.ts), and an editor's save that mirrored 11 files and looked at 11,000
 * through promises waited 1.4 s behind that copy's work. A fixed count per turn held requests for
 * 80–145 ms when 500 pages were copied.
 */
async function inBatches<T>(items: readonly T[], each: (item: T) => void): Promise<void> {
  let turn = performance.now();
  for (const item of items) {
    if (performance.now() - turn > TURN_MS) {
      await new Promise((go) => setImmediate(go));
      turn = performance.now();
    }
    each(item);
  }
}

/**
 * The files of `paths` in `dir` changed since its header manifest was made, or missing: by the rule
 * the header manifest's own reading trusts (folder-manifest.ts), so a copy that passes this check
 * holds no file that manifest would vouch for wrongly.
 */
async function editedSince(dir: string, paths: readonly string[]): Promise<Set<string>> {
  const manifest = statSync(distPath(dir, `/${MANIFEST_FILE}`), { bigint: true });
  const edited = new Set<string>();
  await inBatches(paths, (p) => {
    try {
      if (!changedSince(statSync(distPath(dir, p), { bigint: true }), manifest)) return;
    } catch {} // missing or unreadable: copied again
    edited.add(p);
  });
  return edited;
}

/**
 * Copies the complete build in `from` into `to`, which does not exist, its header manifest last: a
 * copy cut short is no complete build. Once `signal` aborts, every entry left is skipped and the
 * copy throws.
 */
export async function copyBuild(from: string, to: string, signal: AbortSignal): Promise<void> {
  const manifest = path.join(from, MANIFEST_FILE);
  await cp(from, to, { recursive: true, verbatimSymlinks: true, filter: (src) => !signal.aborted && src !== manifest });
  signal.throwIfAborted();
  await copyFile(manifest, path.join(to, MANIFEST_FILE));
}

/**
 * Makes `to` hold exactly the files of `from`, byte for byte, both being complete builds. Throws
 * when either manifest cannot be read, before changing anything. `edited`: `to` may have been
 * changed by hand since it was built (a folder `npm run build` made, which npm start adopted), so
 * a file modified after its header manifest was written is copied too, whatever the manifest says.
 */
export async function mirrorBuild(from: string, to: string, opts: { edited?: boolean } = {}): Promise<MirrorResult> {
  const [want, have] = await Promise.all([readManifest(from), readManifest(to)]);
  const edited = opts.edited ? await editedSince(to, Object.keys(have.files)) : new Set<string>();
  // What `from` lacks goes first, so a file can take the place of a folder.
  const gone = Object.keys(have.files).filter((p) => !Object.hasOwn(want.files, p));
  await Promise.all(gone.map((p) => rm(distPath(to, p), { recursive: true, force: true })));
  const folders = new Set(gone.map((p) => path.dirname(distPath(to, p))));
  for (const d of [...folders].sort((a, b) => b.length - a.length)) await removeEmpty(d, to);
  const copy = Object.keys(want.files).filter((p) => edited.has(p) || have.files[p]?.etag !== want.files[p]?.etag);
  await inBatches([...copy, ...HEADER_FILES], (p) => {
    const target = distPath(to, p);
    mkdirSync(path.dirname(target), { recursive: true });
    // A folder where the file goes (the other build had pages below this path).
    rmSync(target, { recursive: true, force: true });
    copyFileSync(distPath(from, p), target);
  });
  return { copied: copy.length, removed: gone.length, kept: Object.keys(want.files).length - copy.length };
}
