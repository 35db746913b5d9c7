import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * For a test file or suite: `make` makes a folder under the system's temporary folder (the run's
 * own, test/helpers/run-folders.ts), `copy` makes one holding a copy of `source` (a fixture), and
 * `add` takes one made elsewhere (a build's output); all are removed after its tests.
 */
export function tempFolders(): {
  make(prefix: string): Promise<string>;
  copy(source: string, prefix: string): Promise<string>;
  add(dir: string): string;
} {
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const make = async (prefix: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  return {
    make,
    async copy(source, prefix) {
      const dir = await make(prefix);
      await cp(source, dir, { recursive: true });
      return dir;
    },
    add(dir) {
      folders.push(dir);
      return dir;
    },
  };
}
