import type { Dirent, Stats } from "node:fs";
import { copyFile, lstat, mkdir, readdir, rm, unlink, utimes } from "node:fs/promises";
import path from "node:path";

/**
 * Makes one folder a copy of another by changing only what differs: npm start turns the build it
 * retired into the next build's folder (sidecar/build/site-build.ts) rather than copying a whole
 * site into an empty one. Asynchronous throughout, since it runs in the process that serves.
 *
 * A file counts as the same when its size and its modification time (within a microsecond: a copy's
 * time is set in seconds as a double) are the same, rsync's quick check. Copies keep the source's
 * times, so two folders' files agree on both only when one is a copy of the other, or both of one
 * write. A file's time is the kernel's clock tick (a few milliseconds) at the write; two builds are
 * seconds apart, so no two builds' writes share one.
 */

export interface MirrorResult {
  copied: number;
  removed: number;
  kept: number;
}

/** Files and folders under `dir` by relative path (`a/b.html`), with their stats. */
async function entries(dir: string): Promise<{ files: Map<string, Stats>; folders: Set<string> }> {
  const found: Dirent[] = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, Stats>();
  const folders = new Set<string>();
  await Promise.all(
    found.map(async (e) => {
      const rel = path.relative(dir, path.join(e.parentPath, e.name));
      if (e.isDirectory()) folders.add(rel);
      else files.set(rel, await lstat(path.join(dir, rel)));
    }),
  );
  return { files, folders };
}

const same = (a: Stats, b: Stats) =>
  a.isFile() && b.isFile() && a.size === b.size && Math.abs(a.mtimeMs - b.mtimeMs) < 0.001;

/** Makes `to` (an existing folder) hold exactly the files of `from`, byte for byte. */
export async function mirrorFolder(from: string, to: string): Promise<MirrorResult> {
  const [src, dst] = await Promise.all([entries(from), entries(to)]);
  let removed = 0;
  // What `from` lacks goes first, so a file can take the place of a folder and the other way round.
  for (const rel of [...dst.files.keys()]) {
    if (src.files.has(rel)) continue;
    await unlink(path.join(to, rel));
    dst.files.delete(rel);
    removed++;
  }
  const gone = [...dst.folders].filter((rel) => !src.folders.has(rel)).sort((a, b) => b.length - a.length);
  for (const rel of gone) await rm(path.join(to, rel), { recursive: true, force: true });
  let copied = 0;
  let kept = 0;
  for (const rel of [...src.folders].sort()) {
    if (!dst.folders.has(rel)) await mkdir(path.join(to, rel), { recursive: true });
  }
  await Promise.all(
    [...src.files].map(async ([rel, st]) => {
      const had = dst.files.get(rel);
      if (had && same(had, st)) {
        kept++;
        return;
      }
      const target = path.join(to, rel);
      await copyFile(path.join(from, rel), target);
      // In seconds, not as Dates: a Date from `stat` is rounded to the millisecond.
      await utimes(target, st.atimeMs / 1000, st.mtimeMs / 1000);
      copied++;
    }),
  );
  return { copied, removed, kept };
}
