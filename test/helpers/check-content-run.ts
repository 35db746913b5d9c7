import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { tempFolders } from "./temp-folders.ts";

/** `npm run check` as an editor and a pull-request check run it: the script as a child process. */

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** Rewrites `file` with what `change` makes of its text, as an editor's save does. */
export async function edit(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, "utf8")));
}

/** A temporary folder holding a copy of `source` as its `content/`, as a checkout does. */
export async function checkoutOf(temp: ReturnType<typeof tempFolders>, source: string): Promise<string> {
  const root = await temp.make("pr-check-cli-");
  await cp(source, path.join(root, "content"), { recursive: true });
  return root;
}

/**
 * `npm run check [args]` in `root`, content in `root/content`, stopped after 30 seconds; never throws,
 * returns what it printed (a stopped check's code is null).
 */
export async function checkIn(root: string, args: string[] = [], vars: Record<string, string> = {}) {
  const env = { ...process.env, CONTENT_DIR: "content", BASE_URL: "", LOG_DIR: path.join(root, "log"), ...vars };
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, "node_modules/.bin/node"),
      [path.join(ROOT, "scripts/check-content.ts"), ...args],
      // A check that never ends fails its test rather than outliving it.
      { cwd: root, env, timeout: 30_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** `npm run check` on a copy of the content folder `source` whose file `file` (a path in it) `change` rewrote. */
export async function checkEditedCopy(
  temp: ReturnType<typeof tempFolders>,
  source: string,
  file: string,
  change: (text: string) => string,
) {
  const root = await checkoutOf(temp, source);
  await edit(path.join(root, "content", file), change);
  return checkIn(root);
}
