import type { Checkpoint } from "./checkpoint.ts";
import type { LogEntry } from "./entries.ts";
import { historyProblem } from "./history.ts";
import { checkTree, equalHash, proveTree } from "./merkle.ts";
import { parseVerifierKey } from "./note-keys.ts";
import { decodeEntries } from "./plan.ts";
import { LogReadError, type LogReader, type ReadLog, readTile, readTiledLog } from "./read.ts";
import { entryBundles, TILE_WIDTH, type Tile, tileHashReader, tilePath, treeTiles } from "./tiles.ts";
import { type LogTree, tileBytes } from "./tree.ts";

export type { LogReader } from "./read.ts";

/**
 * A monitor's check of a tiled log, as `npm run log:verify` runs it: the checkpoint's signature
 * under a pinned key, the entries against the checkpoint's root, every hash tile against the
 * hashes of the entries, and, given the checkpoint seen last time, a consistency proof (built
 * from the fetched tiles) that the new tree extends it. Reading goes through `LogReader`, so the
 * same check runs over HTTP, a folder or test data. What the site serves is checked against the
 * entries by site-check.ts.
 */

/** What a monitor keeps between runs: the last checkpoint it verified and when. */
export interface SeenCheckpoint {
  origin: string;
  size: number;
  /** Base64 root hash. */
  root: string;
  /** When it was verified (RFC 3339). */
  seen_at: string;
}

export class LogVerifyError extends Error {
  override name = "LogVerifyError";
}

export interface VerifiedLog {
  checkpoint: Checkpoint;
  /** Every entry, parsed. */
  entries: LogEntry[];
  /** The new checkpoint to keep. */
  seen: SeenCheckpoint;
}

const day = (iso: string) => iso.slice(0, 10);

export async function verifyLog(
  reader: LogReader,
  vkey: string,
  opts: { previous?: SeenCheckpoint; now: Date },
): Promise<VerifiedLog> {
  const verifier = parseVerifierKey(vkey);
  const prev = opts.previous;
  const was = prev && `the checkpoint of size ${prev.size} seen on ${day(prev.seen_at)}`;
  // Before any tile is read: a log rolled back to a size whose partial tiles are gone would
  // otherwise fail on a missing tile, not as what it is.
  const early = (_note: Uint8Array, cp: Checkpoint) => {
    if (cp.origin !== verifier.name)
      throw new LogVerifyError(`the checkpoint is for the log ${cp.origin}, but the key is for ${verifier.name}`);
    if (prev && prev.origin !== cp.origin)
      throw new LogVerifyError(`the state file is for the log ${prev.origin}, not ${cp.origin}`);
    if (prev && cp.size < prev.size)
      throw new LogVerifyError(`the log has ${cp.size} entries: not an extension of ${was}, which had more`);
  };
  let read: ReadLog | undefined;
  try {
    read = await readTiledLog(reader, { verifier, authenticate: early });
  } catch (err) {
    if (err instanceof LogReadError) throw new LogVerifyError(err.message);
    throw err;
  }
  if (!read) throw new LogVerifyError(`${reader.where}/checkpoint is missing: there is no log there`);
  const { checkpoint, tree } = read;
  const { size } = checkpoint;
  let entries: LogEntry[];
  try {
    entries = decodeEntries(tree.entries);
  } catch (err) {
    throw new LogVerifyError((err as Error).message);
  }
  // A build never logs on a day before the log's last entry (plan.ts): the feeds date reviews by these days.
  for (let i = 1; i < entries.length; i++) {
    const [was, e] = [entries[i - 1] as LogEntry, entries[i] as LogEntry];
    if (e.logged < was.logged)
      throw new LogVerifyError(
        `log entry ${i} (${e.id}) was logged on ${e.logged}, before entry ${i - 1} (${was.logged}): a log's days never go back, so it was backdated`,
      );
  }

  const misLogged = historyProblem(entries);
  if (misLogged) throw new LogVerifyError(misLogged);

  const tiles = new Map<string, Uint8Array>();
  for (const t of treeTiles(size)) {
    // Named by its full address, as the entry bundles' messages are (read.ts).
    const read = await readTile(reader, t);
    if (!read.bytes) throw new LogVerifyError(`${read.missing}, but the checkpoint says the log needs it`);
    if (!Buffer.from(read.bytes).equals(Buffer.from(tileBytes(tree, t)))) {
      throw new LogVerifyError(`${read.at} does not hold the hashes of the entries it covers`);
    }
    tiles.set(`${t.level}/${t.n}`, read.bytes);
  }
  const hashes = tileHashReader((level, n) => tiles.get(`${level}/${n}`));

  if (prev && was) {
    const oldRoot = Buffer.from(prev.root, "base64");
    const consistent =
      size === prev.size
        ? equalHash(oldRoot, checkpoint.root)
        : prev.size === 0 || checkTree(proveTree(size, prev.size, hashes), size, checkpoint.root, prev.size, oldRoot);
    if (!consistent) {
      const root = Buffer.from(checkpoint.root).toString("base64");
      throw new LogVerifyError(
        `the log of size ${size} (root ${root}) is not an extension of ${was} (root ${prev.root}): the log forked (two builds appended to one checkpoint, and both were published) or its history was rewritten`,
      );
    }
    await checkOlderPartials(reader, tree, prev.size, was);
  }
  const seen = {
    origin: checkpoint.origin,
    size,
    root: Buffer.from(checkpoint.root).toString("base64"),
    seen_at: opts.now.toISOString(),
  };
  return { checkpoint, entries, seen };
}

/**
 * The partial tiles of the checkpoint of `oldSize` entries seen last (`was`), which a reader still
 * holding it fetches: whenever one is served (tlog-tiles: until the full tile exists), its bytes
 * are the start of the tile the log has now, or that reader is shown another log.
 */
async function checkOlderPartials(reader: LogReader, tree: LogTree, oldSize: number, was: string): Promise<void> {
  const size = tree.entries.length;
  const older = [...treeTiles(oldSize), ...entryBundles(oldSize)].filter((t) => t.width < TILE_WIDTH);
  for (const t of older) {
    const levelSize = Math.floor(size / TILE_WIDTH ** (t.level === "entries" ? 0 : t.level));
    const now: Tile = { ...t, width: Math.min(TILE_WIDTH, levelSize - t.n * TILE_WIDTH) };
    if (now.width === t.width) continue;
    const path = tilePath(t);
    const bytes = await reader.read(path);
    // Absent is no failure: a log continued from the site with an empty LOG_DIR serves only the
    // latest published checkpoint's partial tiles (the deviation docs/log.md states).
    if (bytes && !Buffer.from(bytes).equals(Buffer.from(tileBytes(tree, t))))
      throw new LogVerifyError(
        `${reader.where}/${path} is a partial tile of ${was}, but does not hold the start of the tile the log has now (${tilePath(now)}): a reader holding that checkpoint is shown another log`,
      );
  }
}
