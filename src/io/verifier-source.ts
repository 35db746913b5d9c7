import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The source of `npm run log:verify`, published beside the log (`/log/verifier/<path>.txt`) so a
 * reader of `/log/` can see exactly what the verifier checks: `scripts/log-verify.ts` and every
 * module of this project it imports, at their paths in the project (npm packages are not copied).
 */

export const VERIFIER_ENTRY = "scripts/log-verify.ts";

const LOCAL_IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)"/g;

/** Path (relative to `root`) → text of the verifier and the project modules it imports. */
export async function verifierSources(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const pending = [VERIFIER_ENTRY];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    if (out.has(rel)) continue;
    const text = await readFile(path.join(root, rel), "utf8");
    out.set(rel, text);
    for (const m of text.matchAll(LOCAL_IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1] as string));
      if (!target.startsWith("..")) pending.push(target);
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
