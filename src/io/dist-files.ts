import { createHash } from "node:crypto";
import { open, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { etagOfHash, type HeadersManifest, HeadersManifestSchema, MANIFEST_FILE } from "../http-headers/manifest.ts";

/**
 * The one module that reads a built site folder. The build hook, the sidecar's snapshot (and
 * through it the static server, the hub and MCP) all read through here, so every reader resolves
 * a site path the same way and every JSON file is validated against its schema, never cast.
 */

/** A file of the build could not be read or does not match its schema. `file` is the absolute path. */
export class DistReadError extends Error {
  override name = "DistReadError";
  readonly file: string;
  /** The file does not exist (as opposed to being unreadable or invalid). */
  readonly missing: boolean;
  constructor(file: string, reason: string, missing = false) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.missing = missing;
  }
}

/** Absolute path of a site path (`/feed.xml`) inside `dir`; `..` segments cannot leave `dir`. */
export function distPath(dir: string, sitePath: string): string {
  const parts = sitePath.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
  return path.join(dir, ...parts);
}

/** Every file under `dir` as `{ path: "/a/b.json", abs }`, sorted by path for stable output. */
export async function listDistFiles(dir: string): Promise<{ path: string; abs: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const abs = path.join(e.parentPath, e.name);
      return { path: `/${path.relative(dir, abs).split(path.sep).join("/")}`, abs };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

export async function readDistFiles(dir: string): Promise<{ path: string; bytes: Uint8Array }[]> {
  const files = await listDistFiles(dir);
  return Promise.all(files.map(async (f) => ({ path: f.path, bytes: await readFile(f.abs) })));
}

/**
 * How many files `etagDistFiles` reads at once. A build is mostly small pages (a page per review),
 * so each read waits on the disk more than on the hash: 16 keeps the thread pool busy while
 * holding at most 16 × `WHOLE_READ_LIMIT` in memory.
 */
const HASH_CONCURRENCY = 16;

/**
 * Files up to this size are read in one call; larger ones (`reviews.json` is 200 MB at 100,000
 * reviews) as a stream. A read stream costs an open, a stat and several event-loop turns per file,
 * which for 10,000 pages of 5 KB each was most of the hashing time (docs/benchmarks-log.md).
 */
const WHOLE_READ_LIMIT = 1024 * 1024;

/** The strong ETag of one file: read whole when small, streamed when large. */
async function etagOfFile(abs: string): Promise<string> {
  const file = await open(abs, "r");
  try {
    const hash = createHash("sha256");
    if ((await file.stat()).size <= WHOLE_READ_LIMIT) hash.update(await file.readFile());
    else for await (const chunk of file.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    return etagOfHash(hash);
  } finally {
    await file.close();
  }
}

/**
 * Every file under `dir` with its strong ETag, without holding the build in memory (at 100,000
 * reviews `reviews.json` alone is 200 MB and the month pages as much again). Same ETags as
 * `strongEtag` of each file's bytes.
 */
export async function etagDistFiles(dir: string): Promise<{ path: string; etag: string }[]> {
  const files = await listDistFiles(dir);
  const out: { path: string; etag: string }[] = new Array(files.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(HASH_CONCURRENCY, files.length) }, async () => {
      while (next < files.length) {
        const i = next++;
        const f = files[i] as { path: string; abs: string };
        out[i] = { path: f.path, etag: await etagOfFile(f.abs) };
      }
    }),
  );
  return out;
}

/** The bytes of one file, or `undefined` when the build has no such file. */
export async function readDistFile(dir: string, sitePath: string): Promise<Buffer | undefined> {
  const file = distPath(dir, sitePath);
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DistReadError(file, (err as Error).message);
  }
}

/** Parses `bytes` (the file at `sitePath`) as JSON matching `schema`; errors name the file and the field. */
export function parseDistJson<S extends z.ZodType>(
  dir: string,
  sitePath: string,
  bytes: Uint8Array | undefined,
  schema: S,
): z.infer<S> {
  const file = distPath(dir, sitePath);
  if (bytes === undefined) throw new DistReadError(file, "missing", true);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (err) {
    throw new DistReadError(file, `not JSON (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new DistReadError(file, `${first?.path.join(".") || "(root)"}: ${first?.message}`);
  }
  return parsed.data;
}

/** Reads and validates one JSON file of the build. */
export async function readDistJson<S extends z.ZodType>(dir: string, sitePath: string, schema: S): Promise<z.infer<S>> {
  return parseDistJson(dir, sitePath, await readDistFile(dir, sitePath), schema);
}

/** The build's header manifest (`_headers.json`), validated. */
export function readManifest(dir: string): Promise<HeadersManifest> {
  return readDistJson(dir, `/${MANIFEST_FILE}`, HeadersManifestSchema);
}
