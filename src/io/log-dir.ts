import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import { logOrigin } from "../log/checkpoint.ts";
import type { LogReader } from "../log/read.ts";
import { parseTilePath, TILE_WIDTH, type Tile, tilePath, treeTiles } from "../log/tiles.ts";
import { type LogTree, tileBytes, tileFiles } from "../log/tree.ts";

/**
 * LOG_DIR, the review log's state: the log itself in tlog-tiles layout (`checkpoint`,
 * `tile/<L>/<N>`, `tile/entries/<N>`), so the folder is also a servable copy of the log. It keeps
 * the partial tiles of every checkpoint it held, which every build serves (tlog-tiles: until the
 * full tile exists).
 *
 * The commit point is `checkpoint`. A commit, under the lock (log-lock.ts), writes the tiles the
 * new entries need, each synced to disk, syncs their folders, checks that `checkpoint` is still
 * the one the build read, and replaces it with one rename. A tile a checkpoint names is never
 * changed: the new tiles are new paths (a full tile, or a partial one of a new width). A file at
 * such a path with other bytes can only come from a commit that was interrupted before its
 * rename; no checkpoint names it and no build served it (a build commits before it writes its
 * `log/`), so it is replaced, and such a commit's partial tiles wider than any checkpoint's are
 * removed, with any temporary file of it (`removeUnnamedPartials`). A folder with tiles and no checkpoint at all is refused, unless it
 * is a local preview's whose tiles are all the new log's own (`onlyTilesOf`). A tile a checkpoint
 * names that is damaged on disk gets back the bytes the checkpoint allows (`repairTiles`).
 */

export class LogStateError extends Error {
  override name = "LogStateError";
  /** The lines a build reports for it (several for several deleted reviews). */
  readonly problems: string[];
  constructor(message: string, problems: string[] = [message]) {
    super(message);
    this.problems = problems;
  }
}

/** Default LOG_DIR: one log per origin under DATA_DIR, so `PORT=4601 npm start` starts its own. */
export function logDirOf(config: Pick<Config, "LOG_DIR" | "DATA_DIR" | "BASE_URL">): string {
  return (
    config.LOG_DIR ?? path.join(logsRoot(config.DATA_DIR), logOrigin(config.BASE_URL).replace(/[^A-Za-z0-9.-]+/g, "_"))
  );
}

/** Where the default LOG_DIRs of every origin live (`npm run check` reads them all). */
export function logsRoot(dataDir: string): string {
  return path.join(dataDir, "log");
}

export const CHECKPOINT = "checkpoint";

async function readOptional(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return undefined;
    throw err;
  });
}

/** A `LogReader` over a folder in tlog-tiles layout. */
export function folderReader(dir: string): LogReader {
  return { where: dir, read: (rel) => readOptional(path.join(dir, rel)) };
}

/** Writes `bytes` to `file` durably: a temporary file, synced, then renamed over `file`. */
async function writeSynced(file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    const fh = await open(tmp, "wx");
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Commits `tree` with its signed `checkpoint` to `dir`, which must still hold the checkpoint
 * `expected` the build read (undefined: none). Call it holding the lock, and pass its `held` check:
 * nothing is written once the lock is another's. Throws `LogStateError` when the checkpoint changed
 * under the build (another writer ignored the lock) or the lock was lost.
 */
export async function commitLogDir(
  dir: string,
  tree: LogTree,
  checkpoint: string,
  expected: { note: Uint8Array | undefined; size: number },
  held: () => Promise<void> = async () => {},
): Promise<void> {
  await removeUnnamedPartials(dir, expected.size, held);
  const dirs = new Set<string>([dir]);
  for (const [rel, bytes] of tileFiles(tree, expected.size)) {
    const file = path.join(dir, rel);
    const there = await readOptional(file);
    if (!there?.equals(Buffer.from(bytes))) {
      await held();
      await writeSynced(file, bytes);
    }
    for (let d = path.dirname(file); d.startsWith(dir) && d !== dir; d = path.dirname(d)) dirs.add(d);
  }
  for (const d of dirs) await syncDir(d);
  const now = await readOptional(path.join(dir, CHECKPOINT));
  const same =
    now === undefined ? expected.note === undefined : expected.note !== undefined && now.equals(expected.note);
  if (!same) {
    throw new LogStateError(
      `${path.join(dir, CHECKPOINT)} changed while this build was appending to it: another build wrote the log at the same time; nothing was committed, build again`,
    );
  }
  if (now?.toString("utf8") !== checkpoint) {
    await held();
    await writeSynced(path.join(dir, CHECKPOINT), checkpoint);
    await syncDir(dir);
  }
}

/** A file `writeSynced` wrote and had not renamed yet: under the lock, only a killed commit's. */
const TEMPORARY = /\.tmp-\d+-[0-9a-f]{8}$/;

/**
 * Removes what a commit interrupted before its checkpoint left in `dir`: its temporary files (a
 * signed checkpoint no log state names among them), and the partial tiles that no checkpoint of a
 * log of `size` entries (or of a smaller one) names, which it wrote for a larger tree. Left
 * there, a later build would take those for an older checkpoint's, serve them, and report them as
 * damaged once its own tree covered them.
 */
async function removeUnnamedPartials(dir: string, size: number, held: () => Promise<void>): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!TEMPORARY.test(name)) continue;
    await held();
    await rm(path.join(dir, name), { force: true });
  }
  const files = await readdir(path.join(dir, "tile"), { recursive: true }).catch(() => [] as string[]);
  for (const rel of files) {
    if (TEMPORARY.test(rel)) {
      await held();
      await rm(path.join(dir, "tile", rel), { force: true });
      continue;
    }
    const t = parseTilePath(`tile/${rel.split(path.sep).join("/")}`);
    if (!t || t.width === TILE_WIDTH) continue;
    // The partial tile at (L, n) of width w is a tree's of floor(size / 256^L) = 256n + w.
    const level = t.level === "entries" ? 0 : t.level;
    if (t.n * TILE_WIDTH + t.width <= Math.floor(size / TILE_WIDTH ** level)) continue;
    await held();
    await rm(path.join(dir, "tile", rel), { force: true });
  }
}

/**
 * What of a log `dir` holds when it has no checkpoint: its `tile/` folder and a checkpoint's
 * temporary file are a log's (a lost checkpoint, or a first commit interrupted before it), never a
 * new log's to write over. Anything else (`lost+found` on a fresh volume, `.DS_Store`) is no log's.
 */
export async function filesWithoutCheckpoint(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n === "tile" || n.startsWith(`${CHECKPOINT}.`)).sort();
}

/**
 * Whether every file under `dir/tile` is one `tree` has, with its bytes: all a first commit of
 * the same log left when it was interrupted before its checkpoint (a commit's temporary files
 * aside), so writing `tree` again changes nothing any reader saw.
 */
export async function onlyTilesOf(dir: string, tree: LogTree): Promise<boolean> {
  const want = tileFiles(tree);
  const files = await readdir(path.join(dir, "tile"), { recursive: true, withFileTypes: true }).catch(() => []);
  for (const f of files) {
    if (!f.isFile() || f.name.includes(".tmp-")) continue;
    const rel = path.relative(dir, path.join(f.parentPath, f.name)).split(path.sep).join("/");
    const bytes = want.get(rel);
    if (!bytes || !(await readOptional(path.join(dir, rel)))?.equals(Buffer.from(bytes))) return false;
  }
  return true;
}

/**
 * Rewrites the tiles of `dir` that `tree` (the log its checkpoint names, every entry checked
 * against its root) says otherwise: a hash tile or an older partial tile damaged on disk
 * (truncated, missing, other bytes). The bytes written are the only ones the checkpoint allows,
 * so no tile changes; each one repaired is returned with what was wrong. Call it holding the lock.
 */
export async function repairTiles(dir: string, tree: LogTree, held: () => Promise<void>): Promise<string[]> {
  const want = tileFiles(tree);
  for (const t of await keptPartials(dir, tree)) want.set(tilePath(t), tileBytes(tree, t));
  const repaired: string[] = [];
  for (const [rel, bytes] of want) {
    const file = path.join(dir, rel);
    const there = await readOptional(file);
    if (there?.equals(Buffer.from(bytes))) continue;
    await held();
    await writeSynced(file, bytes);
    await syncDir(path.dirname(file));
    const what = !there
      ? "was missing"
      : there.length !== bytes.length
        ? `held ${there.length} bytes, not ${bytes.length}`
        : "held other bytes";
    repaired.push(`${file} ${what}`);
  }
  return repaired;
}

/**
 * The partial tiles of earlier checkpoints that `dir` keeps and `tree` still needs served: those
 * of the tiles that are partial in `tree` (a full tile replaces them), narrower than its own.
 */
export async function keptPartials(dir: string, tree: LogTree): Promise<Tile[]> {
  const size = tree.entries.length;
  const partial = [
    ...treeTiles(size).filter((t) => t.width < TILE_WIDTH),
    ...treeTiles(size)
      .filter((t) => t.level === 0 && t.width < TILE_WIDTH)
      .map((t) => ({ ...t, level: "entries" as const })),
  ];
  const out: Tile[] = [];
  for (const t of partial) {
    const folder = path.join(dir, `${tilePath({ ...t, width: TILE_WIDTH })}.p`);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const width = Number(name);
      if (/^[1-9]\d*$/.test(name) && width < t.width) out.push({ ...t, width });
    }
  }
  return out.sort((a, b) => String(a.level).localeCompare(String(b.level)) || a.n - b.n || a.width - b.width);
}

/**
 * Writes the served copy of the log into `out` (a build's `log/` folder): `files` (checkpoint,
 * key), every tile of `tree`, and the narrower partial tiles `older` of earlier checkpoints, whose
 * bytes are a prefix of the tile `tree` has (the log only grows).
 */
export async function writeLogFiles(
  out: string,
  tree: LogTree,
  files: Record<string, string>,
  older: readonly Tile[] = [],
): Promise<void> {
  const all = new Map<string, Uint8Array | string>(Object.entries(files));
  for (const [rel, bytes] of tileFiles(tree)) all.set(rel, bytes);
  for (const t of older) all.set(tilePath(t), tileBytes(tree, t));
  for (const [rel, bytes] of all) {
    await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
    const fh = await open(path.join(out, rel), "w");
    try {
      await fh.writeFile(bytes);
    } finally {
      await fh.close();
    }
  }
}
