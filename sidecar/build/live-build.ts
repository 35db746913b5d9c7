import type { Logger } from "pino";
import type { SiteBuilds } from "./site-build.ts";
import type { Snapshot } from "./snapshot.ts";
import { SnapshotStore } from "./snapshot-store.ts";

/**
 * Why a build is going live: this process made it (`rebuild`), a publish ping asked for DIST_DIR
 * to be loaded (`publish`), DIST_DIR was found holding a newer build that no instance had
 * announced (`found`: a deployment whose ping never arrived), or another instance announced a
 * build this one had not loaded yet (`catch-up`). Listeners decide by it: an instance catching up
 * serves the build but does not distribute or announce it again.
 */
export type LiveReason = "rebuild" | "publish" | "found" | "catch-up";

/** How the first build went live: made by this process at start-up (`rebuild`), or found in DIST_DIR. */
export type StartReason = "rebuild" | "start-up";

export interface LiveEvent {
  snapshot: Snapshot;
  /** The snapshot served before; the same object when the build did not change. */
  previous: Snapshot;
  reason: LiveReason;
  /** Topic URLs a publish ping named; undefined means all. */
  topics?: readonly string[];
}

export type LiveListener = (event: LiveEvent) => void | Promise<void>;

/** What reacts to a new build subscribes here; handed to the HTTP and MCP adapters. */
export interface BuildEvents {
  onLive(name: string, listener: LiveListener): () => void;
}

/**
 * The one owner of "a new build is live". A build is made (by `SiteBuilds` under `npm start`, or
 * elsewhere and written to DIST_DIR), loaded into a snapshot, recorded (its version and folder,
 * logged), swapped in (the snapshot, and under `npm start` the DIST_DIR symlink), and announced:
 * every subscriber of `onLive` (MCP change notices, hub fan-out and the other instances through
 * `BuildSync`) runs, in subscription order, each awaited. Nothing else reloads
 * the store.
 *
 * Calls run one at a time in call order, so two publishes cannot announce out of order.
 */
export class LiveBuild implements BuildEvents {
  readonly #store: SnapshotStore;
  readonly #builds?: SiteBuilds;
  readonly #log: Logger;
  readonly #listeners = new Map<LiveListener, string>();
  #queue: Promise<unknown> = Promise.resolve();
  /** How the build served first went live: `BuildSync` distributes it when this process made it. */
  readonly started: StartReason;

  /** Over a store already serving a build (`LiveBuild.open` is the start-up path). */
  constructor(deps: { store: SnapshotStore; logger: Logger; builds?: SiteBuilds; started?: StartReason }) {
    this.#store = deps.store;
    this.#builds = deps.builds;
    this.#log = deps.logger;
    this.started = deps.started ?? "start-up";
  }

  /**
   * Start-up: points DIST_DIR at `built.dir` when this process has just built (npm start found
   * no usable build), loads DIST_DIR and logs the build served. Throws `SnapshotError` when
   * DIST_DIR holds no usable build. `resultBytes` bounds each snapshot's result store.
   */
  static async open(deps: {
    distDir: string;
    resultBytes: number;
    logger: Logger;
    builds?: SiteBuilds;
    built?: { dir: string; buildMs: number };
  }): Promise<LiveBuild> {
    if (deps.built) await deps.builds?.activate(deps.built.dir);
    const store = await SnapshotStore.open(deps.distDir, { resultBytes: deps.resultBytes });
    const started = deps.built ? "rebuild" : "start-up";
    const live = new LiveBuild({ store, logger: deps.logger, builds: deps.builds, started });
    const s = store.current;
    deps.logger.info(
      { reason: started, build: s.build, dir: s.dir, reviews: s.index.size, build_ms: deps.built?.buildMs },
      "serving first build",
    );
    return live;
  }

  get current(): Snapshot {
    return this.#store.current;
  }

  /** The store behind it, for what reads snapshots (HTTP, MCP) rather than makes them live. */
  get store(): SnapshotStore {
    return this.#store;
  }

  /**
   * The identity of the build in DIST_DIR when it was written after the one served and is another
   * build; otherwise undefined. See `SnapshotStore.newerOnDisk`.
   */
  newerOnDisk(): Promise<string | undefined> {
    return this.#store.newerOnDisk();
  }

  /**
   * `name` says what the listener does ("distributing it"): a failure is logged as "the build is
   * served, but <name> failed". Returns an unsubscribe function.
   */
  onLive(name: string, listener: LiveListener): () => void {
    this.#listeners.set(listener, name);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Loads `dir` (a fresh folder from `SiteBuilds`, then DIST_DIR is pointed at it) or DIST_DIR
   * (loaded only when it holds another build than the one served), swaps it in and announces it.
   * A load failure throws (`SnapshotError`) and the last good build stays; a listener's failure is
   * logged by name and returned in `failed`, the others still run. `buildMs`: how long the build
   * took, for the log line (npm start's "built in 1.8 s, 131 reviews, serving").
   */
  goLive(
    reason: LiveReason,
    opts: { dir?: string; topics?: readonly string[]; buildMs?: number } = {},
  ): Promise<{ snapshot: Snapshot; changed: boolean; failed: string[] }> {
    const run = this.#queue.then(async () => {
      const previous = this.#store.current;
      const snapshot = await this.#store.reload(opts.dir, { ifChanged: opts.dir === undefined });
      if (opts.dir) await this.#builds?.activate(opts.dir);
      const changed = snapshot !== previous;
      if (changed) {
        this.#log.info(
          {
            reason,
            build: snapshot.build,
            dir: snapshot.dir,
            reviews: snapshot.index.size,
            build_ms: opts.buildMs,
          },
          "serving build",
        );
      }
      const failed: string[] = [];
      const event: LiveEvent = { snapshot, previous, reason, topics: opts.topics };
      for (const [listener, name] of [...this.#listeners]) {
        try {
          await listener(event);
        } catch (err) {
          failed.push(name);
          // The build is live whatever a listener does; the line says which reaction failed and why.
          this.#log.error(
            { build: snapshot.build, listener: name, reason: (err as Error).message, err },
            `the build is served, but ${name} failed`,
          );
        }
      }
      return { snapshot, changed, failed };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
