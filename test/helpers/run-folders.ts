import { execFileSync } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, rmdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { astroCacheDir } from "../../src/build/astro-build.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The folders one test run owns; the global setup makes them and removes them when the run ends. */
export interface TestRunFolders {
  /**
   * Inside the project, under `.tmp/`, for Astro's output folders: Astro keeps a build's prerender
   * chunks inside its output folder only when that folder is under the working directory, and in
   * one shared `.astro/` folder otherwise (src/build/astro-worker-main.ts).
   */
  scratch: string;
  /**
   * Everything else, under the system's temporary folder; it is the workers' TMPDIR too, so what
   * a test or a process it starts puts in `os.tmpdir()` goes when the run ends.
   */
  outside: string;
  /** The project's committed `content/`, extracted read-only for tests that need the real reviews. */
  projectContent: string;
}

/**
 * The committed `content/` (git HEAD), so an editor's unsaved or uncommitted edit never fails a
 * test. Outside a git checkout (an unpacked release) the files as they are are the only content.
 */
async function extractProjectContent(into: string): Promise<void> {
  let tar: Buffer | undefined;
  try {
    execFileSync("git", ["-C", ROOT, "rev-parse", "--is-inside-work-tree"], { stdio: "ignore" });
    tar = execFileSync("git", ["-C", ROOT, "archive", "--format=tar", "HEAD", "content"], {
      maxBuffer: 256 << 20,
    });
  } catch {
    tar = undefined;
  }
  if (tar) execFileSync("tar", ["-x", "-C", into], { input: tar });
  else await cp(path.join(ROOT, "content"), path.join(into, "content"), { recursive: true });
}

/** The file listing every output folder `tempDistDir` made in the run, one a line. */
export const distDirList = (scratch: string) => path.join(scratch, "dist-dirs.txt");

/** Makes this run's folders; the returned function removes them, and `.tmp/` once nothing else uses it. */
export async function makeRunFolders(): Promise<{ folders: TestRunFolders; remove: () => Promise<void> }> {
  const tmpRoot = path.join(ROOT, ".tmp");
  await mkdir(tmpRoot, { recursive: true });
  const scratch = await mkdtemp(path.join(tmpRoot, "test-run-"));
  const outside = await mkdtemp(path.join(os.tmpdir(), "pr-test-run-"));
  // PostgreSQL runs as its own user when the tests run as root (test/helpers/pg-cluster.ts).
  await chmod(outside, 0o755);
  await extractProjectContent(outside);
  const folders = { scratch, outside, projectContent: path.join(outside, "content") };
  const remove = async () => {
    // `npm start` keeps an Astro cache per DIST_DIR under node_modules/.astro, for its next rebuild.
    const dists = await readFile(distDirList(scratch), "utf8").catch(() => "");
    for (const dist of dists.split("\n").filter(Boolean))
      await rm(astroCacheDir(dist), { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
    // Retried: a build a timed-out hook left running may still be writing for a moment.
    const gone = (d: string) => rm(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
    await Promise.all([scratch, outside].map(gone));
    // Another run in the same checkout may still be using it.
    await rmdir(tmpRoot).catch(() => undefined);
  };
  return { folders, remove };
}
