import { readdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";

/**
 * Removes the folder `dir` and everything in it, one folder at a time, awaiting `ready()` before
 * each, so a caller can hold the removal back while something more urgent runs; the file `first`
 * of `dir`, if named, before anything else. Never throws: what cannot be removed is left.
 */
export async function removeTree(dir: string, ready: () => Promise<void>, first?: string): Promise<void> {
  if (first !== undefined) await rm(path.join(dir, first), { force: true }).catch(() => undefined);
  await ready();
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const entry = path.join(dir, e.name);
    if (e.isDirectory()) await removeTree(entry, ready);
    else await rm(entry, { force: true }).catch(() => undefined);
  }
  await rmdir(dir).catch(() => undefined);
}
