import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBundle, encodeBundle } from "../../../src/log/entries.ts";
import { storedHashCount, treeHash } from "../../../src/log/merkle.ts";
import { parseTilePath, tileHashReader, tileIndexPath, tilePath, treeTiles } from "../../../src/log/tiles.ts";
import { appendEntries, EMPTY_LOG, rootOf, tileFiles } from "../../../src/log/tree.ts";

describe("tiles (tiles.ts)", () => {
  it("writes C2SP's tile paths", () => {
    expect(tileIndexPath(1234067)).toBe("x001/x234/067");
    expect(tilePath({ level: 0, n: 1234067, width: 256 })).toBe("tile/0/x001/x234/067");
    expect(tilePath({ level: 2, n: 5, width: 17 })).toBe("tile/2/005.p/17");
    expect(tilePath({ level: "entries", n: 0, width: 1 })).toBe("tile/entries/000.p/1");
    expect(parseTilePath("tile/entries/x001/234.p/7")).toEqual({ level: "entries", n: 1234, width: 7 });
    for (const bad of ["tile/0/1", "tile/0/x001", "tile/00/001", "tile/0/001.p/256", "tile/0/001.p/0", "tile/64/001"]) {
      expect(parseTilePath(bad), bad).toBeUndefined();
    }
  });

  it("lists the tiles of C2SP's examples: 70,000 entries and 256 entries", () => {
    const t = treeTiles(70_000);
    const level0 = t.filter((x) => x.level === 0);
    expect(level0.filter((x) => x.width === 256)).toHaveLength(273);
    expect(level0.filter((x) => x.width < 256)).toEqual([{ level: 0, n: 273, width: 112 }]);
    expect(t.filter((x) => x.level === 1)).toEqual([
      { level: 1, n: 0, width: 256 },
      { level: 1, n: 1, width: 17 },
    ]);
    expect(t.filter((x) => x.level === 2)).toEqual([{ level: 2, n: 0, width: 1 }]);
    expect(treeTiles(256)).toEqual([
      { level: 0, n: 0, width: 256 },
      { level: 1, n: 0, width: 1 },
    ]);
  });

  it("bundles round-trip, and the tiles of a random tree give back its hash", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1200 }), (size) => {
        const entries = Array.from({ length: size }, (_, i) => Buffer.from(`entry ${i}`));
        const tree = appendEntries(EMPTY_LOG, entries);
        const files = tileFiles(tree);
        const tile = (level: number, n: number) =>
          [...files].find(([p]) => p.startsWith(`tile/${level}/${tileIndexPath(n)}`))?.[1];
        expect(Buffer.from(treeHash(size, tileHashReader(tile)))).toEqual(Buffer.from(rootOf(tree)));
        const bundles = [...files].filter(([p]) => p.startsWith("tile/entries/")).flatMap(([, b]) => decodeBundle(b));
        expect(bundles.map((b) => Buffer.from(b).toString())).toEqual(entries.map((e) => e.toString()));
        expect(Buffer.from(encodeBundle(decodeBundle(encodeBundle(entries))))).toEqual(
          Buffer.from(encodeBundle(entries)),
        );
        expect(Buffer.from(treeHash(size, tree.hashes.reader()))).toEqual(Buffer.from(rootOf(tree)));
      }),
      { numRuns: 15 },
    );
  });

  it("stores every hash packed, and appending leaves the earlier tree as it was", () => {
    const entries = Array.from({ length: 305 }, (_, i) => Buffer.from(`entry ${i}`));
    const small = appendEntries(EMPTY_LOG, entries.slice(0, 5));
    const smallRoot = Buffer.from(rootOf(small));
    const big = appendEntries(small, entries.slice(5));
    expect(small.hashes.length).toBe(storedHashCount(5));
    expect(big.hashes.length).toBe(storedHashCount(305));
    expect(Buffer.from(rootOf(small))).toEqual(smallRoot);
    expect(Buffer.from(rootOf(big))).toEqual(Buffer.from(rootOf(appendEntries(EMPTY_LOG, entries))));
    expect(() => big.hashes.at(big.hashes.length)).toThrow(RangeError);
    expect(EMPTY_LOG.hashes.length).toBe(0);
  });

  it("appending writes only new tiles: those of the smaller tree are unchanged", () => {
    const entries = Array.from({ length: 700 }, (_, i) => Buffer.from(`entry ${i}`));
    const small = tileFiles(appendEntries(EMPTY_LOG, entries.slice(0, 300)));
    const big = appendEntries(EMPTY_LOG, entries);
    const added = tileFiles(big, 300);
    for (const [p, bytes] of tileFiles(big)) {
      if (small.has(p)) expect(Buffer.from(small.get(p) as Uint8Array).equals(Buffer.from(bytes)), p).toBe(true);
      else expect(added.has(p), p).toBe(true);
    }
  });
});
