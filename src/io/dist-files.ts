import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { describeIssue } from "../api/schema-issues.ts";
import { etagOfHash, type HeadersManifest, HeadersManifestSchema, MANIFEST_FILE } from "../http-headers/manifest.ts";
import { fileKey } from "./etag-memo.ts";
import { type FolderManifest, NO_MANIFEST } from "./folder-manifest.ts";

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

/**
 * Every file under `dir` as `{ path: "/a/b.json", abs }`, sorted by path for stable output. Read
 * synchronously: a build folder holds about one folder per review, and the promise version pays
 * a trip through the thread pool and the event loop for each.
 */
export function listDistFiles(dir: string): { path: string; abs: string }[] {
  // A file's site path is what follows the folder in its path: a `path.relative` per file resolved
  // both paths again (11,000 files at 10,000 reviews).
  const root = path.resolve(dir);
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const abs = path.join(e.parentPath, e.name);
      const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : path.relative(dir, abs);
      return { path: `/${path.sep === "/" ? rel : rel.split(path.sep).join("/")}`, abs };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

export async function readDistFiles(dir: string): Promise<{ path: string; bytes: Uint8Array }[]> {
  return Promise.all(listDistFiles(dir).map(async (f) => ({ path: f.path, bytes: await readFile(f.abs) })));
}

/** Files are hashed through one buffer of this size, so no file, however large, is held whole. */
const CHUNK = 1024 * 1024;

/** The strong ETag of one file, fed to the hash `CHUNK` bytes at a time through `buffer`. */
function etagOfFile(abs: string, buffer: Buffer): string {
  const fd = openSync(abs, "r");
  try {
    const hash = createHash("sha256");
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
    return etagOfHash(hash);
  } finally {
    closeSync(fd);
  }
}

/**
 * Every file under `dir` with its strong ETag (same as `strongEtag` of each file's bytes), without
 * holding the build in memory: at 100,000 reviews `reviews.json` alone is 200 MB and the month
 * pages as much again, and every file goes through one 1 MiB buffer. For the build's own process
 * (the `astro:build:done` hook), which has nothing else to do meanwhile: the reads are synchronous.
 * A build is mostly small pages (a page per review), and each promise read costs several trips
 * through the thread pool and the event loop (open, stat, read, close).
 */
export function etagDistFiles(
  dir: string,
  known: ReadonlyMap<string, string> = new Map(),
  listed: FolderManifest = NO_MANIFEST,
): { path: string; etag: string; key: string; writtenMs: number }[] {
  const buffer = Buffer.allocUnsafe(CHUNK);
  return listDistFiles(dir).map((f) => {
    const stat = statSync(f.abs, { bigint: true });
    // A file this key names was hashed by an earlier build and not written since (src/io/etag-memo.ts),
    // or the folder's manifest lists it and it has not changed since (folder-manifest.ts).
    const key = fileKey(f.path, stat);
    const writtenMs = Number(stat.mtimeNs / 1_000_000n);
    const etag = known.get(key) ?? listed.etagOf(f.path, stat.ctimeNs) ?? etagOfFile(f.abs, buffer);
    return { path: f.path, etag, key, writtenMs };
  });
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
    throw new DistReadError(file, first ? describeIssue(first, "(root)") : "invalid");
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
