import { HASH_SIZE, type Hash, type HashReader, nodeHash, splitStoredHashIndex, storedHashIndex } from "./merkle.ts";

/**
 * Tile coordinates of C2SP tlog-tiles (c2sp.org/tlog-tiles): height 8, so a full tile holds 256
 * hashes (8,192 bytes); the tile at level L holds stored hashes of tree level 8·L. Same math as
 * Go's sumdb/tlog tiles with H = 8, but C2SP's paths (`tile/<L>/<N>[.p/<W>]`, no height element,
 * and `tile/entries/<N>` for entry bundles).
 */

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

/** A hash tile (`level` ≥ 0) or an entry bundle (`level` = "entries"), `width` hashes or entries wide. */
export interface Tile {
  level: number | "entries";
  n: number;
  /** 1 to 256; below 256 the tile is partial. */
  width: number;
}

/** `x001/x234/067` for 1234067: 3-digit groups, all but the last prefixed with x. */
export function tileIndexPath(n: number): string {
  let s = String(n % 1000).padStart(3, "0");
  for (let m = Math.floor(n / 1000); m > 0; m = Math.floor(m / 1000)) {
    s = `x${String(m % 1000).padStart(3, "0")}/${s}`;
  }
  return s;
}

/** The tile's path below the log prefix, e.g. `tile/0/x001/234`, `tile/entries/005.p/17`. */
export function tilePath(t: Tile): string {
  const partial = t.width < TILE_WIDTH ? `.p/${t.width}` : "";
  return `tile/${t.level}/${tileIndexPath(t.n)}${partial}`;
}

/** Parses a path `tilePath` writes; `undefined` for anything else (so a server can 404 it). */
export function parseTilePath(path: string): Tile | undefined {
  const m = /^tile\/(0|[1-9]\d?|entries)\/((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9]\d{0,2}))?$/.exec(path);
  if (!m) return undefined;
  const level = m[1] === "entries" ? "entries" : Number(m[1]);
  if (typeof level === "number" && level > 63) return undefined;
  const n = (m[2] as string).split("/").reduce((acc, part) => acc * 1000 + Number(part.replace("x", "")), 0);
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (width >= TILE_WIDTH && m[3] !== undefined) return undefined;
  const tile: Tile = { level, n, width };
  return tilePath(tile) === path ? tile : undefined;
}

/**
 * Every hash tile of a tree of `size` leaves, full ones and the partial rightmost ones, level by
 * level (C2SP: "a tree of size 70,000 will be represented by 273 full level 0 tiles, one partial
 * level 0 tile of width 112, …"). With `from`, only the tiles that a tree of `from` leaves lacks.
 */
export function treeTiles(size: number, from = 0): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; Math.floor(size / TILE_WIDTH ** level) > 0; level++) {
    const oldN = Math.floor(from / TILE_WIDTH ** level);
    const newN = Math.floor(size / TILE_WIDTH ** level);
    if (oldN === newN) continue;
    for (let n = Math.floor(oldN / TILE_WIDTH); n < Math.floor(newN / TILE_WIDTH); n++) {
      tiles.push({ level, n, width: TILE_WIDTH });
    }
    const w = newN % TILE_WIDTH;
    if (w > 0) tiles.push({ level, n: Math.floor(newN / TILE_WIDTH), width: w });
  }
  return tiles;
}

/** The entry bundles of a log of `size` entries (the level-0 tiles, renamed), from entry `from` on. */
export function entryBundles(size: number, from = 0): Tile[] {
  return treeTiles(size, from)
    .filter((t) => t.level === 0)
    .map((t) => ({ ...t, level: "entries" as const }));
}

/** The bytes of a hash tile: its `width` hashes, concatenated. */
export function readTileData(t: Tile, read: HashReader): Uint8Array {
  const level = t.level;
  if (level === "entries") throw new Error("readTileData: an entry bundle holds entries, not hashes");
  const start = t.n * TILE_WIDTH;
  const indexes = Array.from({ length: t.width }, (_, i) => storedHashIndex(TILE_HEIGHT * level, start + i));
  return Buffer.concat(read(indexes));
}

/**
 * A `HashReader` over tiles: a stored hash at a tile's level is read from it directly, one between
 * tile levels is hashed from the tile below, as Go's `tlog.HashFromTile` does. `tile` returns the
 * data of the tile at (level, n) that covers the asked index, or undefined when it was not fetched.
 */
export function tileHashReader(tile: (level: number, n: number) => Uint8Array | undefined): HashReader {
  return (indexes) =>
    indexes.map((index) => {
      const { level, n } = splitStoredHashIndex(index);
      const tileLevel = Math.floor(level / TILE_HEIGHT);
      const within = level - tileLevel * TILE_HEIGHT;
      const first = n * 2 ** within;
      const tileN = Math.floor(first / TILE_WIDTH);
      const data = tile(tileLevel, tileN);
      const start = (first % TILE_WIDTH) * HASH_SIZE;
      const end = start + 2 ** within * HASH_SIZE;
      if (!data || data.length < end) throw new Error(`tile/${tileLevel}/${tileIndexPath(tileN)} is missing or short`);
      return subtreeOfTile(data.subarray(start, end));
    });
}

function subtreeOfTile(data: Uint8Array): Hash {
  if (data.length === HASH_SIZE) return data;
  const half = data.length / 2;
  return nodeHash(subtreeOfTile(data.subarray(0, half)), subtreeOfTile(data.subarray(half)));
}
