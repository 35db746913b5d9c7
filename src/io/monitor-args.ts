import { readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { decodeBase64, isValidKeyName } from "../log/note-keys.ts";
import type { SeenCheckpoint } from "../log/verify.ts";

/**
 * The arguments of `npm run log:verify` that name places: `--url` and `--site`, and the `--state`
 * file that keeps the checkpoint seen last. What is wrong with one is a wrong argument (exit 2),
 * never a failure of the site.
 */

// As verifyLog writes it: a root that is no hash, compared with the log's, would read as a rewritten history.
const SeenSchema = z.object({
  origin: z.string().refine(isValidKeyName),
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  root: z.string().refine((r) => decodeBase64(r)?.length === 32),
  seen_at: z.iso.datetime(),
});

/**
 * Why `value` cannot be the --url or --site to read: a wrong argument (exit 2), not a failure of the
 * site. `needsParent`: the site is to be its parent (`parentSite`).
 */
export function urlProblem(value: string, needsParent = false): string | undefined {
  const url = URL.parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    return `${JSON.stringify(value)} is not an http(s) URL`;
  // The files are read below it (<url>/checkpoint), which a query or fragment would swallow, an empty one too.
  if (/[?#]/.test(value)) return `${JSON.stringify(value)} has a query or fragment; give the prefix alone`;
  if (url.username || url.password)
    return "the URL holds a user name or password, which fetch never sends; give the prefix alone";
  if (needsParent && parentSite(value) === undefined)
    return `${JSON.stringify(value)} is at the root of its host: give --site, the site it is the log of`;
  return undefined;
}

/**
 * The site whose records a log at `url` vouches for, by default: the parent of the log's prefix
 * (`https://x.example/log` gives `https://x.example`); undefined for a prefix at its host's root.
 */
export function parentSite(url: string): string | undefined {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  if (path === "") return undefined;
  parsed.pathname = path.replace(/\/[^/]*$/, "") || "/";
  return parsed.href.replace(/\/+$/, "");
}

/** The state file's checkpoint, undefined before the first run, or why it cannot be used. */
export async function readState(file: string): Promise<SeenCheckpoint | undefined | { problem: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== "ENOENT") return { problem: `${file} cannot be read (${e.code ?? e.message})` };
    // Not written yet: its folder must exist, or the state could not be kept after the check.
    const folder = await stat(path.dirname(path.resolve(file))).catch(() => undefined);
    return folder?.isDirectory()
      ? undefined
      : { problem: `${file} cannot be written: ${path.dirname(path.resolve(file))} is not a folder` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${file} is not a state file written by log:verify` };
  }
  const parsed = SeenSchema.safeParse(json);
  return parsed.success ? parsed.data : { problem: `${file} is not a state file written by log:verify` };
}

/** Keeps `seen` in `file` (written aside, then renamed over it); why it could not, or undefined. */
export async function writeState(file: string, seen: SeenCheckpoint): Promise<string | undefined> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, `${JSON.stringify(seen, null, 2)}\n`);
    await rename(tmp, file);
    return undefined;
  } catch (err) {
    return `${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}
