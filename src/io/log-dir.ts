import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import { logOrigin, parseCheckpoint } from "../log/checkpoint.ts";
import { decodeBundle } from "../log/entries.ts";
import { equalHash } from "../log/merkle.ts";
import { NoteError, openNote } from "../log/note.ts";
import type { Verifier } from "../log/note-keys.ts";
import { entryBundles, tilePath } from "../log/tiles.ts";
import { appendEntries, EMPTY_LOG, type LogTree, rootOf, tileFiles } from "../log/tree.ts";

/**
 * LOG_DIR, the review log's state: the log itself in tlog-tiles layout (`checkpoint`,
 * `tile/<L>/<N>`, `tile/entries/<N>`), so the folder is also a servable copy of the log.
 *
 * The commit point is `checkpoint`. A build writes the tiles its new entries need (full tiles
 * and partial ones of a new width are new files; an existing file is never changed), then
 * replaces `checkpoint` with one rename. A build that fails or is killed before that rename
 * leaves the old checkpoint, so the next build reads the old log and the extra files are just
 * written again (a later build with other content overwrites them: nothing references them).
 */

export class LogStateError extends Error {
  override name = "LogStateError";
}

/** Default LOG_DIR: one log per origin under DATA_DIR, so `PORT=4601 npm start` starts its own. */
export function logDirOf(config: Pick<Config, "LOG_DIR" | "DATA_DIR" | "BASE_URL">): string {
  return (
    config.LOG_DIR ?? path.join(config.DATA_DIR, "log", logOrigin(config.BASE_URL).replace(/[^A-Za-z0-9.-]+/g, "_"))
  );
}

const CHECKPOINT = "checkpoint";

async function readOptional(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
}

/**
 * The log in `dir`, with every entry and hash; an empty log when `dir` has no checkpoint. The
 * entries are checked against the checkpoint's root hash, and with `verifier` the checkpoint's
 * signature too (`npm run check` has no key to check with, the build does). `origin`, when given,
 * must match (`npm run check` reads whichever log LOG_DIR holds).
 */
export async function readLogDir(dir: string, opts: { origin?: string; verifier?: Verifier }): Promise<LogTree> {
  const note = await readOptional(path.join(dir, CHECKPOINT));
  if (!note) return EMPTY_LOG;
  const where = path.join(dir, CHECKPOINT);
  let text: string;
  try {
    text = opts.verifier
      ? openNote(note, [opts.verifier]).text
      : note.toString("utf8").slice(0, note.toString("utf8").lastIndexOf("\n\n") + 1);
  } catch (err) {
    if (!(err instanceof NoteError)) throw err;
    throw new LogStateError(
      `${where} is not signed by this log's key ${opts.verifier?.name} (${err.message}). A log keeps one key for life: set LOG_SIGNING_KEY to the key this log was started with, or point LOG_DIR at an empty folder to start a new log`,
    );
  }
  const checkpoint = parseCheckpoint(text);
  if (opts.origin !== undefined && checkpoint.origin !== opts.origin) {
    throw new LogStateError(
      `${where} is the log of ${checkpoint.origin}, but this build's log is ${opts.origin} (from BASE_URL); point LOG_DIR at that origin's log folder or at an empty one`,
    );
  }
  const entries: Uint8Array[] = [];
  for (const t of entryBundles(checkpoint.size)) {
    const file = path.join(dir, tilePath(t));
    const bundle = await readOptional(file);
    if (!bundle) throw new LogStateError(`${file} is missing: LOG_DIR holds a log of ${checkpoint.size} entries`);
    const got = decodeBundle(bundle);
    if (got.length !== t.width) throw new LogStateError(`${file} holds ${got.length} entries, not ${t.width}`);
    entries.push(...got);
  }
  const tree = appendEntries(EMPTY_LOG, entries);
  if (!equalHash(rootOf(tree), checkpoint.root)) {
    throw new LogStateError(
      `${dir}: the entries do not hash to the checkpoint's root; LOG_DIR was changed by hand or damaged`,
    );
  }
  return tree;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Writes `bytes` to `file` through a temporary name and a rename: a reader sees all or nothing. */
async function writeAtomic(file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Commits `tree` (which extends the log of `priorSize` entries in `dir`) with its signed
 * `checkpoint`: new tiles first, the checkpoint last (see the module comment).
 */
export async function commitLogDir(dir: string, tree: LogTree, priorSize: number, checkpoint: string): Promise<void> {
  for (const [rel, bytes] of tileFiles(tree, priorSize)) {
    const file = path.join(dir, rel);
    if (!(await exists(file))) await writeAtomic(file, bytes);
    else if (!(await readFile(file)).equals(Buffer.from(bytes))) await writeAtomic(file, bytes);
  }
  const current = await readOptional(path.join(dir, CHECKPOINT));
  if (current?.toString("utf8") !== checkpoint) await writeAtomic(path.join(dir, CHECKPOINT), checkpoint);
}

/** Writes the served copy of the log into `out` (a build's `log/` folder): every tile of `tree`. */
export async function writeLogFiles(out: string, tree: LogTree, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
    await writeFile(path.join(out, rel), text);
  }
  for (const [rel, bytes] of tileFiles(tree)) {
    await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
    await writeFile(path.join(out, rel), bytes);
  }
}
