import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The strong ETags of the last two builds' files, by what each file was when hashed: its path in
 * the build, device and inode, modification time in nanoseconds and size. The header manifest then
 * hashes only the files a build wrote (src/io/dist-files.ts, `etagDistFiles`); a rebuild after one
 * edit leaves 10,000 pages unwritten. Two builds, because npm start alternates between two folders
 * (sidecar/build/site-build.ts): a folder's untouched files were hashed the build before last.
 *
 * A file written again has a new modification time: builds are seconds apart, and the kernel's clock
 * moves every few milliseconds. A file system may keep coarser times (FAT: 2 s), so a file written
 * less than `SETTLED_MS` before the memo is saved is left out of it, as git's index treats "racy"
 * files: any later write of it then has another time. Kept in the Astro cache folder, which belongs
 * to one output folder.
 */

const MEMO_FILE = "etag-memo.json";

const MemoSchema = z.object({
  version: z.literal(1),
  builds: z.array(z.array(z.tuple([z.string(), z.string()]))).max(2),
});

/** The key of a file as found now. */
export function fileKey(sitePath: string, s: { dev: bigint; ino: bigint; mtimeNs: bigint; size: bigint }): string {
  return `${sitePath}\n${s.dev}:${s.ino}:${s.mtimeNs}:${s.size}`;
}

export interface EtagMemo {
  /** The ETag of a file with this key in one of the last two builds. */
  known: ReadonlyMap<string, string>;
  /** The last build's entries, kept as the one before by `save`. */
  last: [string, string][];
}

/** The memo in `cacheDir`; empty when there is none or it cannot be read. */
export function readEtagMemo(cacheDir: string): EtagMemo {
  try {
    const memo = MemoSchema.parse(JSON.parse(readFileSync(path.join(cacheDir, MEMO_FILE), "utf8")));
    return { known: new Map(memo.builds.flat()), last: memo.builds[0] ?? [] };
  } catch {
    return { known: new Map(), last: [] };
  }
}

/** How long before the memo is saved a file must have been written to be in it. */
export const SETTLED_MS = 2_000;

/**
 * Records this build's files and the last build's, but for files written less than `SETTLED_MS`
 * before `nowMs`. Written whole, then renamed.
 */
export function saveEtagMemo(
  cacheDir: string,
  memo: EtagMemo,
  files: readonly { key: string; etag: string; writtenMs: number }[],
  nowMs = Date.now(),
): void {
  const settled = files.filter((f) => f.writtenMs <= nowMs - SETTLED_MS).map((f): [string, string] => [f.key, f.etag]);
  const file = path.join(cacheDir, MEMO_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify({ version: 1, builds: [settled, memo.last] }));
  renameSync(`${file}.tmp`, file);
}
