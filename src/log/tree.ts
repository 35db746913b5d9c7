import { formatCheckpoint } from "./checkpoint.ts";
import { encodeBundle } from "./entries.ts";
import { HASH_SIZE, type Hash, type HashReader, leafHash, storedHashesForLeaf, treeHash } from "./merkle.ts";
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
  hashes: StoredHashes;
}

/**
 * Stored hashes packed 32 bytes apart in one buffer, appended in place. As an array of
 * `Uint8Array`s each hash cost three objects and a backing store of its own: 46 MiB for the
 * 200,000 hashes of a 100,000-review log, against 6 MiB here.
 */
export class StoredHashes {
  #bytes: Uint8Array;
  #count: number;

  constructor(bytes = new Uint8Array(0), count = 0) {
    this.#bytes = bytes;
    this.#count = count;
  }

  get length(): number {
    return this.#count;
  }

  /** Hash `i`, a view of the store (a stored hash never changes; a `push` that grows the store leaves old views on the old bytes). */
  at(i: number): Hash {
    if (!Number.isInteger(i) || i < 0 || i >= this.#count) {
      throw new RangeError(`stored hash ${i} is not there (${this.#count} stored)`);
    }
    return this.#bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE);
  }

  push(hash: Hash): void {
    const end = (this.#count + 1) * HASH_SIZE;
    if (end > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(end, this.#bytes.length * 2, 64 * HASH_SIZE));
      grown.set(this.#bytes.subarray(0, this.#count * HASH_SIZE));
      this.#bytes = grown;
    }
    this.#bytes.set(hash, this.#count * HASH_SIZE);
    this.#count++;
  }

  /** A copy the caller may append to, leaving this one as it is. */
  copy(): StoredHashes {
    return new StoredHashes(this.#bytes.slice(0, this.#count * HASH_SIZE), this.#count);
  }

  /** Reads hashes by index, as merkle.ts asks for them. */
  reader(): HashReader {
    return (indexes) => indexes.map((i) => this.at(i));
  }
}

export const EMPTY_LOG: LogTree = { entries: [], hashes: new StoredHashes() };

/** `tree` with `added` appended. */
export function appendEntries(tree: LogTree, added: readonly Uint8Array[]): LogTree {
  if (added.length === 0) return tree;
  const entries = [...tree.entries];
  const hashes = tree.hashes.copy();
  const read = hashes.reader();
  for (const e of added) {
    for (const h of storedHashesForLeaf(entries.length, leafHash(e), read)) hashes.push(h);
    entries.push(e);
  }
  return { entries, hashes };
}

export function rootOf(tree: LogTree): Hash {
  return treeHash(tree.entries.length, tree.hashes.reader());
}

/** The signed checkpoint of `tree` for the log named `origin` (the signer's key name must be it). */
export function signedCheckpoint(tree: LogTree, origin: string, signer: Signer): string {
  return signNote(formatCheckpoint({ origin, size: tree.entries.length, root: rootOf(tree) }), [signer]);
}

/** The bytes of a hash tile or entry bundle of `tree`. */
export function tileBytes(tree: LogTree, t: Tile): Uint8Array {
  if (t.level !== "entries") return readTileData(t, tree.hashes.reader());
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
