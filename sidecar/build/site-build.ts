import { lstat, mkdir, readdir, realpath, rename, rm, stat, symlink } from "node:fs/promises";
import path from "node:path";
import {
  type AstroBuildResult,
  astroBuildEnv,
  astroCacheDir,
  PROJECT_ROOT,
  runAstroBuild,
} from "../../src/build/astro-build.ts";
import type { AstroBuildWorker } from "../../src/build/astro-worker.ts";
import { holdDist } from "../../src/build/dist-holder.ts";
import { MANIFEST_FILE } from "../../src/http-headers/manifest.ts";
import { lastBuildFolder, recordLastBuild } from "../../src/integrations/out-dir.ts";
import { copyBuild, editedSinceBuilt, mirrorBuild } from "../../src/io/mirror-build.ts";
import { removeTree } from "./remove-tree.ts";

/** The kind of a folder npm start adopted: `npm run build` made it, and it may hold edits by hand. */
const ADOPTED = "adopted";
const isAdopted = (dir: string) => dir.endsWith(`-${ADOPTED}`);

/** A one-review site for warming the build worker up (see `SiteBuilds.warm`). */
const WARM_UP_CONTENT = path.join(PROJECT_ROOT, "src", "build", "warm-up-content");

/**
 * `npm start`'s builds, one folder per build, and the switch between them (`LiveBuild` decides when).
 *
 * Each build goes into its own folder under `<DIST_DIR>.builds/` (a build writes its output folder
 * as it goes), and DIST_DIR becomes a symlink to the current one, replaced with one `rename`
 * (atomic on POSIX): a reader of DIST_DIR sees the old build or the new, never a mix. A failed
 * build never touches DIST_DIR. The server loads a folder by its real path and keeps it until no
 * request holds it (see SnapshotStore), and `prune` deletes only folders nothing uses.
 *
 * A build's folder need not start empty: the build retired last (`prune` keeps the newest folder
 * nothing uses) is renamed to it and brought up to the last build, copying only the files whose
 * hashes in the two header manifests differ (src/io/mirror-build.ts); Astro rebuilds it in place.
 *
 * With a `worker`, builds run in that long-lived process (Astro stays loaded) rather than in a
 * fresh `astro build` each. `npm run build` (for a CDN) still writes a real DIST_DIR in place, and
 * refuses to write through this symlink while this process serves it.
 */
export class SiteBuilds {
  readonly distDir: string;
  /** `<DIST_DIR>.builds`: beside DIST_DIR, so a rename stays on one file system. */
  readonly root: string;
  readonly #building = new Set<string>();
  readonly #worker?: AstroBuildWorker;
  readonly #output: "inherit" | "capture";
  #warming?: Promise<void>;
  #warmUpFailed = false;
  #seq = 0;
  #release?: () => void;
  /** A retired build's folder that nothing reads any more, for the next build to start from. */
  #spare?: string;
  /**
   * The copy `prepareSpare` is making, which a build stops: it has no use then (the build retires
   * a folder for the next) and it slowed the build (a save at 10,000 reviews by 1.4 s).
   */
  #copying?: AbortController;
  #pruning: Promise<unknown> = Promise.resolve();
  /** Builds in progress, what waits for none (or `close`), folders being removed (never a spare). */
  #running = 0;
  #whenIdle: (() => void)[] = [];
  readonly #removing = new Set<string>();

  /** `output`: where a build without a worker prints (`capture`: into its result); a worker decides for itself. */
  constructor(distDir: string, opts: { worker?: AstroBuildWorker; output?: "inherit" | "capture" } = {}) {
    this.distDir = path.resolve(distDir);
    this.root = `${this.distDir}.builds`;
    this.#worker = opts.worker;
    this.#output = opts.output ?? "inherit";
  }

  /**
   * Gets the worker ready, in the background, with a one-review site (src/build/warm-up-content/)
   * built into a scratch folder: a process's first build costs what a fresh `astro build` does,
   * its later ones a fraction (docs/benchmarks-log.md, "Edit-to-live"). A real build waits for it.
   */
  warm(env: NodeJS.ProcessEnv, signal?: AbortSignal): void {
    const worker = this.#worker;
    if (!worker || worker.warmed || this.#warming || signal?.aborted) return;
    if (this.#warmUpFailed) {
      worker.warm(astroBuildEnv({ distDir: this.distDir, env, cacheKey: this.distDir }));
      return;
    }
    const dir = this.#nextDir("warm-up");
    this.#building.add(dir);
    this.#warming = (async () => {
      await mkdir(this.root, { recursive: true });
      const { code } = await runAstroBuild({
        distDir: dir,
        contentDir: WARM_UP_CONTENT,
        // Its own review log: the warm-up content must never reach the real LOG_DIR.
        env: { ...env, HUB_URL: "off", LOG_DIR: `${dir}-log` },
        dropCache: true,
        silent: true,
        output: this.#output,
        signal,
        worker,
        // Astro's folders in the project are shared with any other build of this checkout.
        lock: true,
      });
      // A warm-up that fails would fail again: later processes start without one.
      if (code !== 0 && !signal?.aborted) this.#warmUpFailed = true;
    })()
      .catch(() => undefined)
      .finally(async () => {
        await rm(dir, { recursive: true, force: true });
        await rm(`${dir}-log`, { recursive: true, force: true });
        this.#building.delete(dir);
        this.#warming = undefined;
      });
  }

  /** Ends the worker's process (a build in progress fails), gives DIST_DIR up; resolves once it has exited. */
  async close(): Promise<void> {
    this.#release?.();
    for (const go of this.#whenIdle.splice(0)) go();
    await this.#worker?.close();
    await this.#warming;
  }

  /**
   * Makes DIST_DIR a symlink, held by this process so `npm run build` refuses to write through it
   * (src/build/dist-holder.ts). A real folder there (`npm run build`'s) is moved into the builds
   * folder and linked back, so it is served until a rebuild replaces it.
   */
  async adopt(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    this.#release ??= holdDist(this.distDir);
    const st = await lstat(this.distDir).catch(() => undefined);
    if (!st?.isDirectory()) return;
    const to = this.#nextDir(ADOPTED);
    await rename(this.distDir, to);
    await this.activate(to);
  }

  /**
   * Builds into a fresh folder with `env` (the server's environment). The folder is returned
   * only on success; a failed build's folder is deleted and DIST_DIR is untouched. `onDataset` is
   * called with the build's `reviews.json` once it is written, before the build ends.
   */
  async build(
    env: NodeJS.ProcessEnv,
    signal?: AbortSignal,
    onDataset?: (file: string) => void,
  ): Promise<{ dir?: string; result: AstroBuildResult }> {
    await mkdir(this.root, { recursive: true });
    const dir = this.#nextDir("build");
    this.#building.add(dir);
    this.#running++;
    this.#copying?.abort();
    try {
      await this.#startFromSpare(dir);
      // One Astro cache for every build of this DIST_DIR, so a rebuild reuses the last one's.
      const result = await runAstroBuild({
        distDir: dir,
        env,
        cacheKey: this.distDir,
        output: this.#output,
        signal,
        worker: this.#worker,
        lock: true,
        onNotice: (n) => {
          if (n.type === "dataset") onDataset?.(n.file);
        },
      });
      const complete = result.code === 0 && (await stat(path.join(dir, MANIFEST_FILE)).catch(() => undefined));
      if (complete) return { dir, result };
      await rm(dir, { recursive: true, force: true });
      return { result };
    } finally {
      this.#building.delete(dir);
      if (--this.#running === 0) for (const go of this.#whenIdle.splice(0)) go();
      // A failed build or a replaced worker process leaves no warm one: make one now, while
      // nothing is waiting for it.
      this.warm(env, signal);
    }
  }

  /**
   * Without a spare (after a start), copies the last build into one in the background, so a first
   * save also starts from the site (docs/deployment.md). An adopted folder may hold edits by hand:
   * it is copied only if no file of it is newer than its manifest, before and after. Never throws.
   */
  async prepareSpare(): Promise<void> {
    const last = lastBuildFolder(astroCacheDir(this.distDir));
    if (this.#spare || !last) return;
    const adopted = isAdopted(last);
    const dir = this.#nextDir("copy");
    this.#building.add(dir);
    const copying = new AbortController();
    this.#copying = copying;
    try {
      if (adopted && (await editedSinceBuilt(last))) throw new Error("edited since it was built");
      await copyBuild(last, dir, copying.signal);
      if (adopted && (await editedSinceBuilt(last))) throw new Error("edited while it was copied");
      if (this.#spare) throw new Error("a spare appeared meanwhile");
      this.#spare = dir;
    } catch {
      // Stopped by a build: the next prune removes it, once no build runs.
      if (!copying.signal.aborted) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    } finally {
      this.#building.delete(dir);
      if (this.#copying === copying) this.#copying = undefined;
    }
  }

  /**
   * Turns the spare folder, if any, into `dir`, a copy of this cache's last build recorded as such,
   * so the build keeps its unchanged pages. Failing part way, the build empties it (out-dir.ts).
   */
  async #startFromSpare(dir: string): Promise<void> {
    const spare = this.#spare;
    this.#spare = undefined;
    if (!spare) return;
    const cache = astroCacheDir(this.distDir);
    const last = lastBuildFolder(cache);
    if (!last || last === (await realpath(spare).catch(() => last))) return;
    try {
      await rename(spare, dir);
      // An adopted folder came from `npm run build`, and someone may have edited it since.
      await mirrorBuild(last, dir, { edited: isAdopted(spare) });
      // Only if the last build is still the one copied.
      if (lastBuildFolder(cache) === last) recordLastBuild(cache, dir);
    } catch {
      // A folder left part-way is emptied by the build; a spare that could not be renamed is pruned.
    }
  }

  /** Points DIST_DIR at `dir` in one atomic rename of a fresh symlink over the old one. */
  async activate(dir: string): Promise<void> {
    const link = `${this.distDir}.link-${process.pid}-${++this.#seq}`;
    await symlink(path.relative(path.dirname(this.distDir), dir), link);
    try {
      await rename(link, this.distDir);
    } catch (err) {
      await rm(link, { force: true });
      throw err;
    }
  }

  /** Deletes the folders not in `inUse` (real paths) nor being built but the spare; never throws. */
  prune(inUse: ReadonlySet<string>): Promise<string[]> {
    // Only the choice is queued: the next prune picks its spare while this one still removes.
    const chosen = this.#pruning.then(() => this.#choose(inUse));
    this.#pruning = chosen.catch(() => undefined);
    return chosen.then((dirs) => this.#remove(dirs));
  }

  /** Picks the spare, and returns the folders to remove (marked as being removed). */
  async #choose(inUse: ReadonlySet<string>): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    // Snapshots name their folders by real path; the project may sit below a symlink.
    const real = await realpath(this.root).catch(() => this.root);
    // The last build stays too: it is served, or about to be (`build` has returned it, `activate`
    // has not run yet), or it failed to load and the next build replaces it.
    const last = lastBuildFolder(astroCacheDir(this.distDir));
    const idle = names
      .filter((name) => {
        const dir = path.join(real, name);
        return (
          !inUse.has(dir) && dir !== last && !this.#building.has(path.join(this.root, name)) && !this.#removing.has(dir)
        );
      })
      .sort()
      .reverse();
    let spare: string | undefined;
    for (const name of idle) {
      if (name.endsWith("-warm-up")) continue;
      if (await stat(path.join(this.root, name, MANIFEST_FILE)).catch(() => undefined)) {
        spare = name;
        break;
      }
    }
    this.#spare = spare === undefined ? undefined : path.join(this.root, spare);
    const dirs = idle.filter((name) => name !== spare).map((name) => path.join(real, name));
    for (const dir of dirs) this.#removing.add(dir);
    return dirs;
  }

  async #remove(dirs: readonly string[]): Promise<string[]> {
    const removed: string[] = [];
    for (const dir of dirs) {
      // The manifest first: a removal cut short (a stop) must not leave a folder that looks complete.
      await removeTree(dir, this.#idle, MANIFEST_FILE);
      this.#removing.delete(dir);
      if (!(await lstat(dir).catch(() => undefined))) removed.push(dir);
    }
    return removed;
  }

  /** Resolves when no build runs: deleting a whole site beside a build slowed it by a third. */
  #idle = (): Promise<void> => (this.#running > 0 ? new Promise((go) => this.#whenIdle.push(go)) : Promise.resolve());

  /** Sortable and unique within the folder: time, process and a sequence number. */
  #nextDir(kind: string): string {
    const stamp = new Date().toISOString().replace(/[-:.]/g, "");
    return path.join(this.root, `${stamp}-${process.pid}-${++this.#seq}-${kind}`);
  }
}
