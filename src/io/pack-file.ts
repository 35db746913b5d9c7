import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { fileIdentity } from "./file-identity.ts";
import { processAlive } from "./process-alive.ts";

/**
 * A build cache as a few files rather than one per entry: a pack holds lines `<key> <JSON>`
 * (a 64-character hex key, a space, one line of JSON, a newline), is written to a temporary name
 * and renamed whole, and is read once as bytes, so the entries cost their size outside the
 * JavaScript heap and no file system call each. Only lines that end in a newline are read, so a
 * cut-off file loses its last entry, nothing else; what a line holds is the caller's to check.
 */

export const KEY_LENGTH = 64;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const PACK = ".pack";
const TMP = ".tmp";

interface Entry {
  bytes: Buffer;
  start: number;
  end: number;
}

/** The packs in `dir`, in name order. */
export function packsIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(PACK))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/**
 * Removes the temporary files of writers that can no longer finish: a build killed, or one that
 * failed, leaves its half-written `<pid>-….pack.tmp` behind, and nothing else would ever remove it.
 * A file of another running process is left alone (it may be renaming it any moment); one of this
 * process is removed, so call this only while this process has no writer open in `dir`.
 */
export function sweepTemporary(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith(PACK + TMP)) continue;
    const pid = Number.parseInt(name, 10);
    if (pid === process.pid || !Number.isSafeInteger(pid) || pid <= 0 || !processAlive(pid)) {
      rmSync(path.join(dir, name), { force: true });
    }
  }
}

/** A pack as this process last read it: its identity on disk and its entries by key. */
interface ReadPack {
  id: string;
  bytes: number;
  entries: Map<string, Entry>;
}

/**
 * Packs this process read, by path, kept while their identity (inode, size, modification time) is
 * unchanged: a pack is never written again once renamed into place, so npm start's build worker
 * reads only the packs written since its last build, not the whole cache on every save. Only a
 * process that builds again keeps them (`keepReadPacks`): in a one-off `astro build` they would
 * hold a cache's bytes and index (44 MiB at 100,000 reviews) through every page for nothing.
 * A folder's packs no longer listed are dropped when the folder is read again.
 */
const readPacks = new Map<string, ReadPack>();
let memoBytes = 0;
/** Bytes of pack files a long-lived builder keeps between builds (the largest site's caches are read from disk each time). */
export const PACK_MEMO_BYTES = 64 * 1024 * 1024;

/** Keeps up to `bytes` of read packs for the next build of this process (npm start's build worker). */
export function keepReadPacks(bytes = PACK_MEMO_BYTES): void {
  memoBytes = bytes;
}

function readPack(name: string): Map<string, Entry> | undefined {
  const file = path.resolve(name);
  const id = fileIdentity(file);
  if (id === undefined) return undefined;
  const known = readPacks.get(file);
  if (known?.id === id) return known.entries;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const entries = new Map<string, Entry>();
  let start = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl >= 0; start = nl + 1, nl = bytes.indexOf(NEWLINE, start)) {
    if (nl - start <= KEY_LENGTH + 1 || bytes[start + KEY_LENGTH] !== SPACE) continue;
    const key = bytes.toString("latin1", start, start + KEY_LENGTH);
    entries.set(key, { bytes, start: start + KEY_LENGTH + 1, end: nl });
  }
  readPacks.delete(file);
  let held = bytes.length;
  for (const p of readPacks.values()) held += p.bytes;
  if (held <= memoBytes) readPacks.set(file, { id, bytes: bytes.length, entries });
  return entries;
}

/** Every pack in `dir` (or the given ones), indexed by key; a missing folder is an empty cache. */
export class PackIndex {
  readonly files: string[] = [];
  private readonly entries = new Map<string, Entry>();

  readonly dir: string;

  constructor(dir: string, files?: readonly string[]) {
    this.dir = dir;
    const listed = files ?? packsIn(dir);
    if (files === undefined) {
      const present = new Set(listed.map((f) => path.resolve(f)));
      const folder = path.resolve(dir);
      for (const file of readPacks.keys()) {
        if (path.dirname(file) === folder && !present.has(file)) readPacks.delete(file);
      }
    }
    for (const file of listed) {
      const entries = readPack(file);
      if (entries === undefined) continue;
      this.files.push(file);
      for (const [key, entry] of entries) this.entries.set(key, entry);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The stored JSON of `key`, if any. */
  get(key: string): string | undefined {
    const e = this.entries.get(key);
    return e?.bytes.toString("utf8", e.start, e.end);
  }

  /** The whole stored line of `key` (key, space, JSON, newline), for copying without decoding. */
  line(key: string): Buffer | undefined {
    const e = this.entries.get(key);
    return e?.bytes.subarray(e.start - KEY_LENGTH - 1, e.end + 1);
  }
}

/** Writes one pack, line by line through a small buffer; `close` makes it visible. */
export class PackWriter {
  private readonly file: string;
  private readonly tmp: string;
  private readonly fd: number;
  private chunks: Buffer[] = [];
  private pending = 0;
  count = 0;

  /**
   * A name no other pack has (two writers of one thread may open in the same millisecond), led by
   * the process id so that `sweepTemporary` can tell whose temporary file it is.
   */
  constructor(dir: string, prefix = "") {
    this.file = path.join(dir, `${process.pid}-${prefix}${threadId}-${randomUUID()}${PACK}`);
    mkdirSync(dir, { recursive: true });
    this.tmp = `${this.file}${TMP}`;
    this.fd = openSync(this.tmp, "w");
  }

  add(key: string, json: string): void {
    this.addLine(Buffer.from(`${key} ${json}\n`, "utf8"));
  }

  addLine(line: Buffer): void {
    this.chunks.push(line);
    this.pending += line.length;
    this.count++;
    if (this.pending >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.pending > 0) writeSync(this.fd, Buffer.concat(this.chunks, this.pending));
    this.chunks = [];
    this.pending = 0;
  }

  /** Renames the pack into place, or removes it when nothing was added. */
  close(): void {
    this.flush();
    closeSync(this.fd);
    if (this.count === 0) rmSync(this.tmp, { force: true });
    else renameSync(this.tmp, this.file);
  }

  /** Drops the pack: what failed part-way must not leave a file behind. */
  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    rmSync(this.tmp, { force: true });
  }
}

/** Runs `fill`, then closes `writer`; if either throws, the pack is dropped and the error passed on. */
export function writing(writer: PackWriter, fill: () => void): void {
  try {
    fill();
    writer.close();
  } catch (err) {
    writer.abort();
    throw err;
  }
}

/** Packs a cache may hold before `compact` merges them: one is written by each build that missed. */
export const MAX_PACKS = 8;
/** Entries outside `keep` a cache may hold, as a share of `keep`, before `compact` drops them. */
export const MAX_STALE_SHARE = 0.25;

/**
 * Rewrites the cache as one pack of exactly the entries of `keep`, from packs written since
 * `indexes` were read or from `indexes` (earlier ones preferred), once what it holds beside them is
 * worth a rewrite: more than `MAX_PACKS` packs, more entries outside `keep` than `MAX_STALE_SHARE` of it,
 * or `force` (a damaged entry was stored again, and only a rewrite makes the new line the one read).
 * Until then a build that changed a few entries leaves its pack beside the others: rewriting every
 * entry after a one-file edit took a tenth of a second of each rebuild at 10,000 reviews. Every
 * writer of this process in the folder must be closed (temporary files left by failed writers are
 * removed).
 */
export function compact(indexes: readonly PackIndex[], keep: ReadonlySet<string>, force = false): void {
  const [first] = indexes;
  if (!first) return;
  sweepTemporary(first.dir);
  const known = new Set(indexes.flatMap((x) => x.files));
  const written = packsIn(first.dir).filter((f) => !known.has(f));
  const fresh = new PackIndex(first.dir, written);
  const all = [fresh, ...indexes];
  if (!force && known.size + written.length <= MAX_PACKS) {
    const stale = new Set<string>();
    for (const x of all) for (const key of x.keys()) if (!keep.has(key)) stale.add(key);
    if (stale.size <= keep.size * MAX_STALE_SHARE) return;
  }
  const writer = new PackWriter(first.dir, "all-");
  writing(writer, () => {
    for (const key of keep) {
      for (const x of all) {
        const line = x.line(key);
        if (line) {
          writer.addLine(line);
          break;
        }
      }
    }
  });
  for (const file of [...known, ...written]) rmSync(file, { force: true });
}
