import { lstatSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { processAlive } from "../io/process-alive.ts";

/**
 * Empties an output folder that holds an earlier build by renaming it aside and removing the old
 * tree while the build runs: Astro removes it file by file before bundling (`emptyDir` in
 * astro/dist/core/build/static-build.js), a page per review being 20,000 entries at 10,000 reviews
 * (docs/benchmarks-log.md, 2026-12-01). The build still writes into an empty folder.
 */

const ASIDE = ".emptying-";

/** The sibling an output folder is renamed to; the pid says whether its remover still runs. */
const asideName = (dir: string, pid: number) => path.join(path.dirname(dir), `.${path.basename(dir)}${ASIDE}${pid}`);

/**
 * Renames `dir` aside, puts an empty folder with its mode in its place and starts removing the old
 * tree; resolves when it is gone. Undefined when the folder is left for Astro to empty: it is
 * missing or empty, a symbolic link (renaming would replace the link with a folder), holds `.git`
 * (which Astro keeps), or cannot be renamed (a mount point, a read-only parent).
 */
export function emptyAside(dir: string): Promise<void> | undefined {
  let mode: number;
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    const names = readdirSync(dir);
    if (names.length === 0 || names.includes(".git")) return undefined;
    mode = stat.mode & 0o7777;
  } catch {
    return undefined;
  }
  const aside = asideName(dir, process.pid);
  try {
    renameSync(dir, aside);
  } catch {
    return undefined;
  }
  try {
    mkdirSync(dir, { mode });
  } catch (err) {
    // Put the old folder back rather than leave no output folder at all.
    renameSync(aside, dir);
    throw err;
  }
  return Promise.all([rm(aside, { recursive: true, force: true, maxRetries: 3 }), removeStale(dir)]).then(() => {});
}

/** Folders set aside by builds that ended before removing them (killed, or failed mid-way). */
async function removeStale(dir: string): Promise<void> {
  const prefix = `.${path.basename(dir)}${ASIDE}`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(dir)).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (pid === process.pid || (Number.isInteger(pid) && processAlive(pid))) continue;
    await rm(path.join(path.dirname(dir), name), { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * The integration: sets the folder aside when the build starts (before Astro's own removal, which
 * then finds it empty) and waits for the old tree to be gone before the build ends, so nothing
 * outlives the build process. A build that fails leaves it to the next build's `removeStale`.
 */
export function emptyOutDir(): AstroIntegration {
  let outDir: string | undefined;
  let removal: Promise<void> | undefined;
  return {
    name: "public-reviews/empty-out-dir",
    hooks: {
      "astro:config:done": ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      "astro:build:start": () => {
        if (outDir) removal = emptyAside(outDir);
      },
      "astro:build:done": async () => {
        await removal;
      },
    },
  };
}
