import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

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
