import { realpath } from "node:fs/promises";
import {
  buildIn,
  isSameBuild,
  loadSnapshot,
  manifestWrittenAt,
  type PreparedDataset,
  prepareDataset,
  type Snapshot,
  SnapshotError,
} from "./snapshot.ts";

/** A snapshot pinned by one user (a request); `release` is idempotent. */
export interface Held {
  snapshot: Snapshot;
  release(): void;
}

/**
 * Holds the current build. `reload()` loads the next snapshot beside the current one and swaps it
 * in only when complete, so a failed load keeps serving the last good build; `LiveBuild` is its one
 * caller in the service and announces each swap. Requests `hold()` the snapshot they started with; a swapped-out
 * snapshot is reported as retired once its last holder releases it, and only then may its folder
 * be deleted.
 */
export class SnapshotStore {
  #current: Snapshot;
  readonly #source: string;
  readonly #refs = new Map<Snapshot, number>();
  readonly #onRetire = new Set<(s: Snapshot) => void>();
  #loading: Promise<unknown> = Promise.resolve();
  /** The dataset of a build still finishing, read ahead (`prepare`). */
  #prepared?: Promise<PreparedDataset | undefined>;

  private constructor(source: string, first: Snapshot) {
    this.#source = source;
    this.#current = first;
  }

  /**
   * Loads the build at `source` (DIST_DIR; a symlink is followed, and re-resolved on each reload).
   * `resultBytes` bounds each snapshot's result store (RESPONSE_CACHE_MB in bytes; default 0, none).
   */
  static async open(source: string, opts: { resultBytes?: number } = {}): Promise<SnapshotStore> {
    return new SnapshotStore(source, await loadSnapshot(await resolve(source), undefined, opts.resultBytes));
  }

  get current(): Snapshot {
    return this.#current;
  }

  /** The folder the current build was loaded from. */
  get distDir(): string {
    return this.#current.dir;
  }

  /** Pins the current snapshot until `release()`: its folder stays on disk meanwhile. */
  hold(): Held {
    const snapshot = this.#current;
    this.#refs.set(snapshot, (this.#refs.get(snapshot) ?? 0) + 1);
    let released = false;
    return {
      snapshot,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#refs.get(snapshot) ?? 1) - 1;
        if (left > 0) this.#refs.set(snapshot, left);
        else {
          this.#refs.delete(snapshot);
          if (snapshot !== this.#current) this.#retire(snapshot);
        }
      },
    };
  }

  /** Build folders some snapshot still needs: the current one and every held one. */
  dirsInUse(): Set<string> {
    return new Set([this.#current.dir, ...[...this.#refs.keys()].map((s) => s.dir)]);
  }

  /** Called when a swapped-out snapshot has no holder left (its folder may then be pruned). */
  onRetire(listener: (s: Snapshot) => void): () => void {
    this.#onRetire.add(listener);
    return () => this.#onRetire.delete(listener);
  }

  /**
   * Loads `dir` (default: DIST_DIR, its symlink resolved again) and swaps it in. Reloads run one at a time in
   * call order. Throws `SnapshotError` and keeps the old snapshot on failure.
   *
   * With `ifChanged`, a folder that still holds the current build (same real path, same
   * `_headers.json`) is not loaded again and nothing is swapped: a publish ping after a deployment
   * that changed nothing, or this instance's own build announcement, costs one file read.
   */
  reload(dir?: string, opts: { ifChanged?: boolean } = {}): Promise<Snapshot> {
    const run = this.#loading.then(async () => {
      const real = await resolve(dir ?? this.#source);
      if (opts.ifChanged && (await isSameBuild(real, this.#current))) return this.#current;
      const prepared = await this.#prepared;
      this.#prepared = undefined;
      const next = await loadSnapshot(real, this.#current, undefined, prepared);
      const old = this.#current;
      this.#current = next;
      if (old !== next && !this.#refs.has(old)) this.#retire(old);
      return next;
    });
    this.#loading = run.catch(() => undefined);
    return run;
  }

  /**
   * Starts reading a build's `/reviews.json` (`file`) before the build has finished, for the next
   * `reload` (`prepareDataset`); `undefined` lets go of what was read (the build failed). One at a
   * time: the last call wins, and a file that cannot be read is simply read again by `reload`.
   * Resolves once it is read (the caller need not wait).
   */
  prepare(file: string | undefined): Promise<unknown> {
    this.#prepared = file === undefined ? undefined : prepareDataset(file, this.#current).catch(() => undefined);
    return this.#prepared ?? Promise.resolve();
  }

  /**
   * The identity of the build in DIST_DIR when its `_headers.json` was written after the served
   * one's and it is another build; otherwise undefined. Costs a `stat` while nothing was written,
   * and one read of the manifest when something was.
   */
  async newerOnDisk(): Promise<string | undefined> {
    const real = await realpath(this.#source).catch(() => undefined);
    const written = real === undefined ? undefined : await manifestWrittenAt(real);
    if (real === undefined || written === undefined || written <= this.#current.writtenAtMs) return undefined;
    const build = await buildIn(real);
    return build === this.#current.build ? undefined : build;
  }

  #retire(s: Snapshot): void {
    for (const l of this.#onRetire) l(s);
  }
}

async function resolve(source: string): Promise<string> {
  try {
    return await realpath(source);
  } catch (err) {
    throw new SnapshotError(`cannot open ${source} (${(err as Error).message}); run npm run build`);
  }
}
