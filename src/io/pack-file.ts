import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

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

/** Every pack in `dir` (or the given ones), indexed by key; a missing folder is an empty cache. */
export class PackIndex {
  readonly files: string[] = [];
  private readonly entries = new Map<string, Entry>();

  readonly dir: string;

  constructor(dir: string, files = packsIn(dir)) {
    this.dir = dir;
    for (const file of files) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      this.files.push(file);
      let start = 0;
      for (let nl = bytes.indexOf(NEWLINE); nl >= 0; start = nl + 1, nl = bytes.indexOf(NEWLINE, start)) {
        if (nl - start <= KEY_LENGTH + 1 || bytes[start + KEY_LENGTH] !== SPACE) continue;
        const key = bytes.toString("latin1", start, start + KEY_LENGTH);
        this.entries.set(key, { bytes, start: start + KEY_LENGTH + 1, end: nl });
      }
    }
  }

  get size(): number {
    return this.entries.size;
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

  /** A name no other pack has: two writers of one thread may open in the same millisecond. */
  constructor(dir: string, file = path.join(dir, `${process.pid}-${threadId}-${randomUUID()}${PACK}`)) {
    this.file = file;
    mkdirSync(dir, { recursive: true });
    this.tmp = `${this.file}.tmp`;
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
}

/**
 * Leaves the cache holding exactly the entries of `keep`, from `indexes` (earlier ones preferred)
 * or from packs written since they were read, in one pack, unless it already does.
 */
export function compact(indexes: readonly PackIndex[], keep: ReadonlySet<string>): void {
  const [first] = indexes;
  if (!first) return;
  const known = new Set(indexes.flatMap((x) => x.files));
  const written = packsIn(first.dir).filter((f) => !known.has(f));
  if (written.length === 0 && known.size <= 1) {
    const only = indexes.find((x) => x.files.length > 0) ?? first;
    if (only.size === keep.size && [...keep].every((k) => only.has(k))) return;
  }
  const all = [new PackIndex(first.dir, written), ...indexes];
  const writer = new PackWriter(first.dir, path.join(first.dir, `all-${randomUUID()}${PACK}`));
  for (const key of keep) {
    for (const x of all) {
      const line = x.line(key);
      if (line) {
        writer.addLine(line);
        break;
      }
    }
  }
  writer.close();
  for (const file of [...known, ...written]) rmSync(file, { force: true });
}
