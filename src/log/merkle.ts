import { createHash } from "node:crypto";

/**
 * RFC 6962 Merkle tree hashing over "stored hashes", ported from Go's golang.org/x/mod/sumdb/tlog:
 * every leaf hash and every complete subtree hash is stored once, at `storedHashIndex(level, n)`,
 * in the order a log appends them. Small pure functions over hashes; where they need earlier
 * hashes they ask a `HashReader`, so the same code runs over an in-memory array, the tiles in
 * LOG_DIR or tiles fetched over HTTP. Sizes and indexes are plain numbers: a review log stays far
 * below 2^53 entries.
 */

export const HASH_SIZE = 32;
export type Hash = Uint8Array;

/** Reads stored hashes by index (see `storedHashIndex`), in the order asked. */
export type HashReader = (indexes: readonly number[]) => Hash[];

/** SHA-256 of the empty string: the hash of the empty tree (RFC 6962 section 2.1). */
export const EMPTY_TREE_HASH: Hash = createHash("sha256").digest();

/** RFC 6962 leaf hash: SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Hash {
  return createHash("sha256").update(LEAF_PREFIX).update(data).digest();
}

/** RFC 6962 interior node hash: SHA-256(0x01 || left || right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  return createHash("sha256").update(NODE_PREFIX).update(left).update(right).digest();
}

const LEAF_PREFIX = new Uint8Array([0]);
const NODE_PREFIX = new Uint8Array([1]);

/** Index of the hash of the `n`th complete subtree of height `level` in the stored order. */
export function storedHashIndex(level: number, n: number): number {
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  let i = 0;
  for (; n > 0; n = Math.floor(n / 2)) i += n;
  return i + level;
}

/** Inverse of `storedHashIndex`. */
export function splitStoredHashIndex(index: number): { level: number; n: number } {
  let n = Math.floor(index / 2);
  let indexN = storedHashIndex(0, n);
  for (;;) {
    const x = indexN + 1 + trailingZeros(n + 1);
    if (x > index) break;
    n++;
    indexN = x;
  }
  const level = index - indexN;
  return { level, n: Math.floor(n / 2 ** level) };
}

/** How many hashes a tree of `n` leaves stores. */
export function storedHashCount(n: number): number {
  if (n === 0) return 0;
  let count = storedHashIndex(0, n - 1) + 1;
  for (let i = n - 1; i % 2 === 1; i = Math.floor(i / 2)) count++;
  return count;
}

/**
 * The hashes to append when leaf `n` (0-based) with hash `leaf` joins a tree of `n` leaves: the
 * leaf hash, then the hash of every subtree it completes.
 */
export function storedHashesForLeaf(n: number, leaf: Hash, read: HashReader): Hash[] {
  const out = [leaf];
  const m = trailingZeros(n + 1);
  const indexes: number[] = new Array(m);
  for (let i = 0; i < m; i++) indexes[m - 1 - i] = storedHashIndex(i, Math.floor(n / 2 ** i) - 1);
  const old = readExactly(read, indexes);
  let h = leaf;
  for (let i = 0; i < m; i++) {
    h = nodeHash(old[m - 1 - i] as Hash, h);
    out.push(h);
  }
  return out;
}

/** The Merkle tree hash of the first `n` leaves (RFC 6962 MTH). */
export function treeHash(n: number, read: HashReader): Hash {
  if (n === 0) return EMPTY_TREE_HASH;
  const hashes = readExactly(read, subTreeIndex(0, n, []));
  return subTreeHash(0, n, hashes).hash;
}

/** Inclusion proof of leaf `n` in the tree of size `t` (RFC 6962 audit path). */
export function proveRecord(t: number, n: number, read: HashReader): Hash[] {
  if (!(t > 0 && n >= 0 && n < t)) throw new RangeError(`no inclusion proof of leaf ${n} in a tree of ${t}`);
  const indexes = leafProofIndex(0, t, n, []);
  const hashes = readExactly(read, indexes);
  return leafProof(0, t, n, hashes).proof;
}

/** True when `proof` shows that leaf `n` with hash `leaf` is in the tree of size `t` with hash `root`. */
export function checkRecord(proof: readonly Hash[], t: number, root: Hash, n: number, leaf: Hash): boolean {
  if (!(t > 0 && n >= 0 && n < t)) return false;
  const got = runRecordProof(proof, 0, t, n, leaf);
  return got !== undefined && equalHash(got, root);
}

/** Consistency proof that the tree of size `n` is a prefix of the tree of size `t` (RFC 6962 2.1.2). */
export function proveTree(t: number, n: number, read: HashReader): Hash[] {
  if (!(n >= 1 && n <= t)) throw new RangeError(`no consistency proof from size ${n} to ${t}`);
  const hashes = readExactly(read, treeProofIndex(0, t, n, []));
  return treeProof(0, t, n, hashes).proof;
}

/** True when `proof` shows that the tree of size `n` and hash `old` is a prefix of size `t`, hash `root`. */
export function checkTree(proof: readonly Hash[], t: number, root: Hash, n: number, old: Hash): boolean {
  if (!(n >= 1 && n <= t)) return false;
  const got = runTreeProof(proof, 0, t, n, old);
  return got !== undefined && equalHash(got.old, old) && equalHash(got.root, root);
}

export function equalHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

function readExactly(read: HashReader, indexes: readonly number[]): Hash[] {
  if (indexes.length === 0) return [];
  const hashes = read(indexes);
  if (hashes.length !== indexes.length) {
    throw new Error(`tlog: asked for ${indexes.length} hashes, got ${hashes.length}`);
  }
  return hashes;
}

function trailingZeros(x: number): number {
  let z = 0;
  while (x > 0 && x % 2 === 0) {
    x /= 2;
    z++;
  }
  return z;
}

/** The largest power of two strictly below `n` (n > 1), with its exponent. */
function maxpow2(n: number): { k: number; level: number } {
  let level = 0;
  while (2 ** (level + 1) < n) level++;
  return { k: 2 ** level, level };
}

function subTreeIndex(lo: number, hi: number, need: number[]): number[] {
  while (lo < hi) {
    const { k, level } = maxpow2(hi - lo + 1);
    need.push(storedHashIndex(level, lo / k));
    lo += k;
  }
  return need;
}

function subTreeHash(lo: number, hi: number, hashes: Hash[]): { hash: Hash; rest: Hash[] } {
  let numTree = 0;
  while (lo < hi) {
    lo += maxpow2(hi - lo + 1).k;
    numTree++;
  }
  let h = hashes[numTree - 1] as Hash;
  for (let i = numTree - 2; i >= 0; i--) h = nodeHash(hashes[i] as Hash, h);
  return { hash: h, rest: hashes.slice(numTree) };
}

function leafProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (lo + 1 === hi) return need;
  const { k } = maxpow2(hi - lo);
  if (n < lo + k) {
    leafProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    leafProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function leafProof(lo: number, hi: number, n: number, hashes: Hash[]): { proof: Hash[]; rest: Hash[] } {
  if (lo + 1 === hi) return { proof: [], rest: hashes };
  const { k } = maxpow2(hi - lo);
  if (n < lo + k) {
    const p = leafProof(lo, lo + k, n, hashes);
    const th = subTreeHash(lo + k, hi, p.rest);
    return { proof: [...p.proof, th.hash], rest: th.rest };
  }
  const th = subTreeHash(lo, lo + k, hashes);
  const p = leafProof(lo + k, hi, n, th.rest);
  return { proof: [...p.proof, th.hash], rest: p.rest };
}

function runRecordProof(p: readonly Hash[], lo: number, hi: number, n: number, leaf: Hash): Hash | undefined {
  if (lo + 1 === hi) return p.length === 0 ? leaf : undefined;
  if (p.length === 0) return undefined;
  const last = p[p.length - 1] as Hash;
  const { k } = maxpow2(hi - lo);
  if (n < lo + k) {
    const th = runRecordProof(p.slice(0, -1), lo, lo + k, n, leaf);
    return th && nodeHash(th, last);
  }
  const th = runRecordProof(p.slice(0, -1), lo + k, hi, n, leaf);
  return th && nodeHash(last, th);
}

function treeProofIndex(lo: number, hi: number, n: number, need: number[]): number[] {
  if (n === hi) return lo === 0 ? need : subTreeIndex(lo, hi, need);
  const { k } = maxpow2(hi - lo);
  if (n <= lo + k) {
    treeProofIndex(lo, lo + k, n, need);
    subTreeIndex(lo + k, hi, need);
  } else {
    subTreeIndex(lo, lo + k, need);
    treeProofIndex(lo + k, hi, n, need);
  }
  return need;
}

function treeProof(lo: number, hi: number, n: number, hashes: Hash[]): { proof: Hash[]; rest: Hash[] } {
  if (n === hi) {
    if (lo === 0) return { proof: [], rest: hashes };
    const th = subTreeHash(lo, hi, hashes);
    return { proof: [th.hash], rest: th.rest };
  }
  const { k } = maxpow2(hi - lo);
  if (n <= lo + k) {
    const p = treeProof(lo, lo + k, n, hashes);
    const th = subTreeHash(lo + k, hi, p.rest);
    return { proof: [...p.proof, th.hash], rest: th.rest };
  }
  const th = subTreeHash(lo, lo + k, hashes);
  const p = treeProof(lo + k, hi, n, th.rest);
  return { proof: [...p.proof, th.hash], rest: p.rest };
}

function runTreeProof(
  p: readonly Hash[],
  lo: number,
  hi: number,
  n: number,
  old: Hash,
): { old: Hash; root: Hash } | undefined {
  if (n === hi) {
    if (lo === 0) return p.length === 0 ? { old, root: old } : undefined;
    return p.length === 1 ? { old: p[0] as Hash, root: p[0] as Hash } : undefined;
  }
  if (p.length === 0) return undefined;
  const last = p[p.length - 1] as Hash;
  const { k } = maxpow2(hi - lo);
  if (n <= lo + k) {
    const r = runTreeProof(p.slice(0, -1), lo, lo + k, n, old);
    return r && { old: r.old, root: nodeHash(r.root, last) };
  }
  const r = runTreeProof(p.slice(0, -1), lo + k, hi, n, old);
  return r && { old: nodeHash(last, r.old), root: nodeHash(last, r.root) };
}
