import { hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { threadId } from "node:worker_threads";
import type { Business } from "../content/records.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";

/**
 * The build's cache of review analysis: each review's summary (review-summary.ts) is a pure
 * function of its annotated fields, of the insights content, of the business and of the code and
 * model that analyse it, so it is kept between builds in Astro's cache folder under a hash of all
 * of those. A rebuild after editing one review analyses that review; the rest is read back.
 *
 * Packed, not one file per review: entries are lines `<key> <summary JSON>` in a few `.pack`
 * files (one per analysis thread that had work), each written to a temporary name and renamed
 * whole. A build reads every pack once as bytes and decodes an entry when its review comes up, so
 * the cache costs its size in memory outside the JavaScript heap and no file system call per
 * review. After the build the entries it used are written to one pack and the others removed, so
 * the cache stays the size of the content. A line that is cut short or does not decode is a miss:
 * the review is analysed again, never read wrong.
 */

const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

/**
 * The analysing code: every source file of the insights and the content model, hashed. The build
 * bundles these modules, so the files are read from the project root, as the worker's are. Without
 * them there is no cache (an entry must never outlive the code that made it).
 */
function codeVersion(root: string): string | undefined {
  const parts: string[] = [`wink-nlp ${version("wink-nlp")}`, `model ${version("wink-eng-lite-web-model")}`];
  try {
    for (const folder of ["src/insights", "src/content"]) {
      for (const name of readdirSync(path.join(root, folder)).sort()) {
        if (name.endsWith(".ts")) parts.push(name, readFileSync(path.join(root, folder, name), "utf8"));
      }
    }
  } catch {
    return undefined;
  }
  return hash("sha256", parts.join("\0"), "hex");
}

/**
 * The part of every key this build shares: the code, and the parts of the insights content and of
 * the business the annotation reads (createSummariser), so that editing the FAQ, the summary or the
 * address keeps the cache. Undefined when the code cannot be identified.
 */
export function contextKey(content: InsightsContent, business: Business, root = process.cwd()): string | undefined {
  const code = codeVersion(root);
  const read = [
    content.aspects,
    content.lexicon,
    business.name,
    business.technicians,
    business.services,
    business.service_areas,
  ];
  return code && hash("sha256", `${code}\0${JSON.stringify(read)}`, "hex");
}

/** Key of one review's summary: the context and exactly the fields the annotation reads. */
export function summaryKey(context: string, r: ReviewInput): string {
  const fields = [r.title, r.text, r.rating, r.technicians, r.services, r.service_areas];
  return hash("sha256", `${context}\0${JSON.stringify(fields)}`, "hex");
}

const KEY_LENGTH = 64;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const PACK = ".pack";

/** The folder of packs inside an Astro cache folder. */
export function annotationDir(astroCacheDir: string): string {
  return path.join(astroCacheDir, "annotations");
}

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

  constructor(dir: string, file = path.join(dir, `${process.pid}-${threadId}-${Date.now()}${PACK}`)) {
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
  const writer = new PackWriter(first.dir, path.join(first.dir, `all-${process.pid}-${Date.now()}${PACK}`));
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
