import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * A name for "a build of these content files with this environment": the hash of every file's
 * path and bytes under `contentDir`, and of `env`. Undefined when the folder holds anything but
 * plain files and folders (a symbolic link's target can change without the folder changing).
 */
export async function contentKey(contentDir: string, env: Record<string, string>): Promise<string | undefined> {
  const hash = createHash("sha256").update(JSON.stringify(Object.entries(env).sort()));
  const entries = await readdir(contentDir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const e of entries) {
    const rel = path.relative(contentDir, path.join(e.parentPath, e.name));
    if (e.isDirectory()) hash.update(`${rel}/\0`);
    else if (e.isFile()) files.push(rel);
    else return undefined;
  }
  for (const file of files.sort()) {
    const bytes = await readFile(path.join(contentDir, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest("hex").slice(0, 24);
}
