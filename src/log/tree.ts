import { formatCheckpoint } from "./checkpoint.ts";
import { encodeBundle } from "./entries.ts";
import { arrayReader, type Hash, leafHash, storedHashesForLeaf, treeHash } from "./merkle.ts";
import { signNote } from "./note.ts";
import type { Signer } from "./note-keys.ts";
import { entryBundles, readTileData, TILE_WIDTH, type Tile, tilePath, treeTiles } from "./tiles.ts";

/**
 * A log held in memory: its entries and every stored hash, and the files that publish it under
 * tlog-tiles (`checkpoint`, `tile/<L>/<N>`, `tile/entries/<N>`). Pure: LOG_DIR and dist/ are
 * written by src/io/log-dir.ts.
 */
export interface LogTree {
  entries: readonly Uint8Array[];
  /** Every stored hash (merkle.ts), `storedHashCount(entries.length)` of them. */
  hashes: readonly Hash[];
}

export const EMPTY_LOG: LogTree = { entries: [], hashes: [] };

/** `tree` with `added` appended. */
export function appendEntries(tree: LogTree, added: readonly Uint8Array[]): LogTree {
  if (added.length === 0) return tree;
  const entries = [...tree.entries];
  const hashes = [...tree.hashes];
  const read = arrayReader(hashes);
  for (const e of added) {
    hashes.push(...storedHashesForLeaf(entries.length, leafHash(e), read));
    entries.push(e);
  }
  return { entries, hashes };
}

export function rootOf(tree: LogTree): Hash {
  return treeHash(tree.entries.length, arrayReader(tree.hashes));
}

/** The signed checkpoint of `tree` for the log named `origin` (the signer's key name must be it). */
export function signedCheckpoint(tree: LogTree, origin: string, signer: Signer): string {
  return signNote(formatCheckpoint({ origin, size: tree.entries.length, root: rootOf(tree) }), [signer]);
}

/** The bytes of a hash tile or entry bundle of `tree`. */
export function tileBytes(tree: LogTree, t: Tile): Uint8Array {
  if (t.level !== "entries") return readTileData(t, arrayReader(tree.hashes));
  const start = t.n * TILE_WIDTH;
  return encodeBundle(tree.entries.slice(start, start + t.width));
}

/**
 * Every tile and entry bundle of `tree` as path → bytes (paths below the log prefix); with
 * `from`, only those a log of `from` entries does not have yet (full tiles never change, and a
 * partial tile of a given width never does either).
 */
export function tileFiles(tree: LogTree, from = 0): Map<string, Uint8Array> {
  const size = tree.entries.length;
  const out = new Map<string, Uint8Array>();
  for (const t of [...treeTiles(size, from), ...entryBundles(size, from)]) out.set(tilePath(t), tileBytes(tree, t));
  return out;
}
