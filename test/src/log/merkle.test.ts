import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkRecord,
  checkTree,
  EMPTY_TREE_HASH,
  type Hash,
  type HashReader,
  leafHash,
  proveRecord,
  proveTree,
  splitStoredHashIndex,
  storedHashCount,
  storedHashesForLeaf,
  storedHashIndex,
  treeHash,
} from "../../../src/log/merkle.ts";

// RFC 6962 reference leaves and tree heads, as published with Certificate Transparency's Merkle
// code (transparency-dev/merkle testonly): leaves, the root for sizes 1 to 8, two audit paths and
// two consistency proofs in the tree of 8.
const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(
  (h) => Buffer.from(h, "hex"),
);
const ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const hex = (h: Uint8Array) => Buffer.from(h).toString("hex");

/** A `HashReader` over an array of every stored hash, in order (the log keeps them packed: tree.ts). */
function arrayReader(stored: readonly Hash[]): HashReader {
  return (indexes) =>
    indexes.map((i) => {
      const h = stored[i];
      if (!h) throw new RangeError(`stored hash ${i} is not there (${stored.length} stored)`);
      return h;
    });
}

/** Every stored hash of a tree of the given leaves, appended one leaf at a time as a log does. */
function storedOf(leaves: readonly Uint8Array[]): Hash[] {
  const stored: Hash[] = [];
  leaves.forEach((data, n) => {
    stored.push(...storedHashesForLeaf(n, leafHash(data), arrayReader(stored)));
  });
  return stored;
}

/** RFC 6962's recursive definition, independent of the stored-hash code. */
function mth(leaves: readonly Hash[]): Hash {
  if (leaves.length === 0) return EMPTY_TREE_HASH;
  if (leaves.length === 1) return leaves[0] as Hash;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return createHash("sha256")
    .update(Buffer.from([1]))
    .update(mth(leaves.slice(0, k)))
    .update(mth(leaves.slice(k)))
    .digest();
}

describe("RFC 6962 hashing (merkle.ts)", () => {
  it("gives the reference tree heads for sizes 0 to 8", () => {
    const stored = storedOf(LEAVES);
    expect(hex(treeHash(0, arrayReader(stored)))).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    for (let n = 1; n <= 8; n++) expect(hex(treeHash(n, arrayReader(stored)))).toBe(ROOTS[n - 1]);
    expect(stored).toHaveLength(storedHashCount(8));
  });

  it("gives the reference audit paths and consistency proofs", () => {
    const read = arrayReader(storedOf(LEAVES));
    expect(proveRecord(8, 0, read).map(hex)).toEqual([
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]);
    expect(proveRecord(8, 5, read).map(hex)).toEqual([
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ]);
    expect(proveTree(8, 2, read).map(hex)).toEqual([
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]);
  });

  it("splitStoredHashIndex inverts storedHashIndex", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 100_000 }), (level, n) => {
        expect(splitStoredHashIndex(storedHashIndex(level, n))).toEqual({ level, n });
      }),
    );
  });

  it("every inclusion proof checks at random sizes, and a wrong leaf, index or root does not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((t) => fc.tuple(fc.constant(t), fc.integer({ min: 0, max: t - 1 }))),
        ([t, n]) => {
          const leaves = Array.from({ length: t }, (_, i) => Buffer.from(`leaf ${i}`));
          const stored = storedOf(leaves);
          const read = arrayReader(stored);
          const root = treeHash(t, read);
          expect(hex(root)).toBe(hex(mth(leaves.map(leafHash))));
          const proof = proveRecord(t, n, read);
          expect(checkRecord(proof, t, root, n, leafHash(leaves[n] as Uint8Array))).toBe(true);
          expect(checkRecord(proof, t, root, n, leafHash(Buffer.from("other")))).toBe(false);
          if (t > 1) expect(checkRecord(proof, t, root, (n + 1) % t, leafHash(leaves[n] as Uint8Array))).toBe(false);
          expect(checkRecord(proof, t, leafHash(Buffer.from("x")), n, leafHash(leaves[n] as Uint8Array))).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("every consistency proof checks at random sizes, and one against a rewritten history does not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((t) => fc.tuple(fc.constant(t), fc.integer({ min: 1, max: t }))),
        fc.integer({ min: 0, max: 299 }),
        ([t, n], changed) => {
          const leaves = Array.from({ length: t }, (_, i) => Buffer.from(`leaf ${i}`));
          const read = arrayReader(storedOf(leaves));
          const proof = proveTree(t, n, read);
          const oldRoot = treeHash(n, read);
          expect(checkTree(proof, t, treeHash(t, read), n, oldRoot)).toBe(true);
          // The same old tree with one leaf rewritten is not a prefix of the new one.
          const i = changed % n;
          const rewritten = leaves.slice(0, n).map((l, j) => (j === i ? Buffer.from("rewritten") : l));
          const fakeOld = treeHash(n, arrayReader(storedOf(rewritten)));
          expect(checkTree(proof, t, treeHash(t, read), n, fakeOld)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});
