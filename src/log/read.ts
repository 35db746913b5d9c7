import { type Checkpoint, parseCheckpoint } from "./checkpoint.ts";
import { decodeBundle, encodeBundle } from "./entries.ts";
import { equalHash, HASH_SIZE } from "./merkle.ts";
import { openNote, parseNote } from "./note.ts";
import type { Verifier } from "./note-keys.ts";
import { TILE_WIDTH, type Tile, tilePath } from "./tiles.ts";
import { appendEntries, EMPTY_LOG, type LogTree, rootOf } from "./tree.ts";

/**
 * Reading a tiled log from wherever it is (LOG_DIR, the published site, test data): the
 * checkpoint, opened with the log's key or only parsed, and every entry bundle, checked against
 * the checkpoint's root. What the build continues, what `npm run check` reads ids from and what a
 * monitor starts from.
 */

export interface LogReader {
  /** Where the log is, for messages (a folder or a URL prefix). */
  where: string;
  /** The bytes at `path` below the log prefix (`checkpoint`, `tile/0/000`), or undefined when absent. */
  read(path: string): Promise<Uint8Array | undefined>;
}

export class LogReadError extends Error {
  override name = "LogReadError";
}

/** A tile's bytes, and where they were read, for messages. */
export interface TileRead {
  bytes: Uint8Array;
  at: string;
}

/**
 * The bytes of tile `t` at `reader`, or undefined with `missing` saying what is not there. A
 * partial tile that is gone is read from the start of its full tile: tlog-tiles lets a log delete
 * a partial tile once the full tile is available, and lets a client fetch the full tile as a
 * fallback. Either way the bytes are checked against the checkpoint by the caller.
 */
export async function readTile(reader: LogReader, t: Tile): Promise<TileRead | { bytes?: undefined; missing: string }> {
  const path = tilePath(t);
  const bytes = await reader.read(path);
  if (bytes) return { bytes, at: `${reader.where}/${path}` };
  if (t.width === TILE_WIDTH) return { missing: `${reader.where}/${path} is missing` };
  const fullPath = tilePath({ ...t, width: TILE_WIDTH });
  const full = await reader.read(fullPath);
  if (!full) return { missing: `${reader.where}/${path} is missing (and so is ${fullPath})` };
  const at = `${reader.where}/${fullPath} (read in place of ${path}, which is missing)`;
  if (t.level !== "entries") return { bytes: full.subarray(0, t.width * HASH_SIZE), at };
  try {
    return { bytes: encodeBundle(decodeBundle(full).slice(0, t.width)), at };
  } catch {
    // Its own check of the bytes names what is wrong with them.
    return { bytes: full, at };
  }
}

export interface ReadLog {
  checkpoint: Checkpoint;
  /** The checkpoint's bytes as read: a commit checks they are still there. */
  note: Uint8Array;
  tree: LogTree;
}

/**
 * The log at `reader`, or undefined when it has no checkpoint. With `verifier`, the checkpoint
 * must be signed by it; with `origin`, it must name that log. Throws `LogReadError` saying what
 * does not hold. `authenticate` sees the checkpoint's bytes once its origin matched and before
 * any tile is read (tlog-tiles: no tile is fetched before a checkpoint that needs it verified),
 * with the checkpoint it parsed; what it throws is thrown as it is.
 */
export async function readTiledLog(
  reader: LogReader,
  opts: {
    verifier?: Verifier;
    origin?: string;
    authenticate?: (note: Uint8Array, checkpoint: Checkpoint) => void;
  } = {},
): Promise<ReadLog | undefined> {
  const note = await reader.read("checkpoint");
  if (!note) return undefined;
  const where = `${reader.where}/checkpoint`;
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(opts.verifier ? openNote(note, [opts.verifier]).text : parseNote(note).text);
  } catch (err) {
    throw new LogReadError(
      opts.verifier
        ? `${where} is not signed by this log's key ${opts.verifier.name} (${(err as Error).message})`
        : `${where} is not a checkpoint (${(err as Error).message})`,
    );
  }
  if (opts.origin !== undefined && checkpoint.origin !== opts.origin) {
    throw new LogReadError(`${where} is the log of ${checkpoint.origin}, not ${opts.origin}`);
  }
  opts.authenticate?.(note, checkpoint);
  const entries: Uint8Array[] = [];
  // Bundle by bundle, not a list of all of them first: a signed size the tiles do not back (2^53
  // entries) fails at its first missing bundle instead of exhausting memory listing them.
  for (let n = 0; n * TILE_WIDTH < checkpoint.size; n++) {
    const t: Tile = { level: "entries", n, width: Math.min(TILE_WIDTH, checkpoint.size - n * TILE_WIDTH) };
    const read = await readTile(reader, t);
    if (!read.bytes)
      throw new LogReadError(`${read.missing}, but the checkpoint says the log has ${checkpoint.size} entries`);
    const { bytes: bundle, at } = read;
    let got: Uint8Array[];
    try {
      got = decodeBundle(bundle);
    } catch (err) {
      throw new LogReadError(`${at}: ${(err as Error).message}`);
    }
    if (got.length !== t.width) throw new LogReadError(`${at} holds ${got.length} entries, not ${t.width}`);
    entries.push(...got);
  }
  const tree = appendEntries(EMPTY_LOG, entries);
  if (!equalHash(rootOf(tree), checkpoint.root)) {
    throw new LogReadError(
      `${reader.where}: the entries do not hash to the checkpoint's root (tree size ${checkpoint.size})`,
    );
  }
  return { checkpoint, note, tree };
}
