import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { astroBuild, type BuildRun, ROOT, removeCaches, removeCachesSync } from "./astro-build.ts";
import { runNode } from "./children.ts";

/** Same seed every run, so two runs measure the same content. */
export const SEED = "bench";
/** Newest review date; the query dates in queries.ts and conditional.ts are relative to it. */
export const UNTIL = "2026-11-20";

/**
 * One temp folder per benchmark run holding the generated content and the builds, made on demand
 * and shared by the sections: content of a size is generated once, and a size is built once, so
 * the search bench serves exactly what the build bench measured. `dispose()` removes everything, the
 * builds' Astro caches too.
 */
export class Workspace {
  readonly root: string;
  #contents = new Map<number, Promise<string>>();
  #dists = new Map<number, Promise<BuildRun>>();
  #extraDirs = 0;

  private constructor(root: string) {
    this.root = root;
  }

  static async create(): Promise<Workspace> {
    return new Workspace(await mkdtemp(path.join(os.tmpdir(), "pr-bench-")));
  }

  /** A content folder of `reviews` generated reviews (scripts/generate.ts in a child process). */
  content(reviews: number): Promise<string> {
    let pending = this.#contents.get(reviews);
    if (!pending) {
      const out = path.join(this.root, `content-${reviews}`);
      pending = runNode(
        [
          path.join(ROOT, "scripts/generate.ts"),
          "--reviews",
          String(reviews),
          "--out",
          out,
          "--seed",
          SEED,
          "--until",
          UNTIL,
        ],
        { cwd: ROOT },
      ).then(() => out);
      this.#contents.set(reviews, pending);
    }
    return pending;
  }

  /** The build of `content(reviews)`, made once; the first caller's build is the one measured. */
  dist(reviews: number): Promise<BuildRun> {
    let pending = this.#dists.get(reviews);
    if (!pending) {
      pending = this.build(reviews);
      this.#dists.set(reviews, pending);
    }
    return pending;
  }

  /** An extra, unshared build of `content(reviews)` (for repeated timings). */
  async build(reviews: number): Promise<BuildRun> {
    const content = await this.content(reviews);
    const dist = path.join(this.root, `dist-${reviews}-${this.#extraDirs++}`);
    return astroBuild(content, dist);
  }

  /** A fresh empty folder inside the workspace. */
  tempDir(prefix: string): Promise<string> {
    return mkdtemp(path.join(this.root, `${prefix}-`));
  }

  async dispose(): Promise<void> {
    await removeCaches();
    await rm(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }

  /** For a signal handler about to exit: nothing asynchronous runs after it. */
  disposeSync(): void {
    removeCachesSync();
    rmSync(this.root, { recursive: true, force: true });
  }
}
