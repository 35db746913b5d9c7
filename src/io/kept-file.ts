import { randomUUID } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { processAlive } from "./process-alive.ts";

/**
 * A file made once and kept in DATA_DIR (the review log's generated key, the MCP session secret):
 * placed whole and at most once, however many processes start at once, on volumes with hard links
 * or without.
 */

/** The file operations it is kept with: the system's, or a test's (a volume without hard links). */
export const keptFileSystem = { link, mkdir, open, readdir, readFile, rm, stat, writeFile };
export type KeptFileSystem = typeof keptFileSystem;

/**
 * Where hard links are not to be had (FAT and exFAT, some network and FUSE volumes): `file` created
 * exclusively, so a file already there is never replaced, and written in one write. Returns false when
 * `file` exists.
 */
async function writeInPlace(
  fs: KeptFileSystem,
  file: string,
  text: string,
  cannotWrite: (err: unknown) => Error,
): Promise<boolean> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await fs.open(file, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw cannotWrite(err);
  }
  try {
    await fh.writeFile(text);
    await fh.sync();
    await fh.close();
  } catch (err) {
    // Nothing has used a text not yet returned: the unfinished file goes.
    await fh.close().catch(() => {});
    await fs.rm(file, { force: true });
    throw cannotWrite(err);
  }
  return true;
}

/** A draft older than this was left behind: its writer links it a moment after writing it. */
const DRAFT_LEFT_MS = 60_000;

/**
 * Removes the drafts of `file` (below) that processes killed before linking them left behind, or
 * after linking and before removing them. No text of theirs was ever used, or it is the one in
 * `file`, so removing them starts no second one; a draft counts as left when the PID its name holds
 * is gone or it is older than a minute. A writer whose draft was taken all the same tries again.
 */
export async function removeLeftDrafts(fs: KeptFileSystem, file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const pid = name.startsWith(prefix) && /^(\d+)\.[0-9a-f-]{36}$/.exec(name.slice(prefix.length))?.[1];
    if (!pid) continue;
    const draft = path.join(dir, name);
    const modified = (await fs.stat(draft).catch(() => undefined))?.mtimeMs ?? Date.now();
    if (!processAlive(Number(pid)) || Date.now() - modified > DRAFT_LEFT_MS) await fs.rm(draft, { force: true });
  }
}

/**
 * Puts `text` in `file` unless a file is there already; returns whether it did. `cannotWrite` words
 * the error when neither a link nor a write in place can put it there.
 */
export async function placeOnce(
  fs: KeptFileSystem,
  file: string,
  text: string,
  cannotWrite: (err: unknown) => Error,
): Promise<boolean> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Written whole beside it, then linked into place: two processes starting at once keep the first
  // text linked, never two, and neither ever reads the file half written.
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  await fs.writeFile(draft, text, { flag: "wx", mode: 0o600 });
  try {
    await fs.link(draft, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // EEXIST: another process's text is in place. ENOENT: this draft was taken for a left one.
    if (code === "EEXIST" || code === "ENOENT") return false;
    return await writeInPlace(fs, file, text, cannotWrite);
  } finally {
    await fs.rm(draft, { force: true });
  }
}
