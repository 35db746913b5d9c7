import type { Logger } from "pino";
import type { Clock } from "../clock.ts";
import type { LiveBuild, LiveEvent } from "./live-build.ts";
import type { Snapshot } from "./snapshot.ts";

/** The listener name `BuildSync` subscribes under; a publish job fails (and is retried) when it does. */
export const DISTRIBUTE = "distributing it";

/** The instances' shared record of the live build (PostgreSQL, sidecar/db/build-broadcast.ts). */
export interface ClusterBuilds {
  /** Records `version` as live and notifies every instance. */
  record(version: string): Promise<void>;
  /** The version last recorded, or undefined before the first. */
  version(): Promise<string | undefined>;
  reachable(): Promise<boolean>;
}

/**
 * Takes each build this instance makes live to everyone else: the hub distributes its topics
 * (`hub.publish`, which offers each topic to PostgreSQL or SQLite and queues the deliveries it
 * owes) and, with a shared database, its version is recorded and announced to the other
 * instances. Every `intervalMs`, and whenever an announcement arrives, it checks:
 *
 * - the announced version differs from the one served: DIST_DIR is loaded again (`catch-up`),
 *   so an instance that missed a notice converges within one interval;
 * - a build this instance made live could not be distributed (database down): it is tried again;
 * - the database has just come back: the hub compares every topic with what it last distributed
 *   (`hub_topic_versions`) and distributes the difference.
 *
 * The timer runs on an injected clock, so tests move time instead of sleeping.
 */
export class BuildSync {
  readonly #live: LiveBuild;
  readonly #hub: { publish(topics?: readonly string[]): Promise<unknown> };
  readonly #cluster?: ClusterBuilds;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #log: Logger;
  /** A build this instance made live whose distribution has not succeeded yet. */
  #owed: Snapshot | undefined;
  #down = false;
  #checking: Promise<void> | undefined;
  #again = false;
  #cancel: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  #closed = false;

  constructor(deps: {
    live: LiveBuild;
    hub: { publish(topics?: readonly string[]): Promise<unknown> };
    cluster?: ClusterBuilds;
    clock: Clock;
    intervalMs: number;
    logger: Logger;
  }) {
    this.#live = deps.live;
    this.#hub = deps.hub;
    this.#cluster = deps.cluster;
    this.#clock = deps.clock;
    this.#intervalMs = deps.intervalMs;
    this.#log = deps.logger;
  }

  /**
   * Subscribes to the live build and arms the timer. With `announce`, the build served now is
   * one this instance made (npm start built at start-up): it is recorded as owed and distributed
   * by the first check. The first check also records a version when the database has none yet.
   */
  start(opts: { announce?: boolean } = {}): Promise<void> {
    this.#unsubscribe = this.#live.onLive(DISTRIBUTE, (e) => this.#onLive(e));
    if (opts.announce) this.#owed = this.#live.current;
    this.#arm();
    return this.check();
  }

  /** One check now (the timer and an announcement call this); concurrent calls coalesce into one more. */
  check(): Promise<void> {
    if (this.#checking) {
      this.#again = true;
      return this.#checking;
    }
    this.#checking = this.#check()
      .catch((err: unknown) => this.#log.error({ err }, "checking the live build against the other instances failed"))
      .finally(() => {
        this.#checking = undefined;
        if (this.#again && !this.#closed) {
          this.#again = false;
          void this.check();
        }
      });
    return this.#checking;
  }

  /** Resolves once no check is running (tests, after moving the clock). */
  async idle(): Promise<void> {
    while (this.#checking) await this.#checking;
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#cancel?.();
    this.#unsubscribe?.();
    return this.#checking ?? Promise.resolve();
  }

  async #onLive(e: LiveEvent): Promise<void> {
    // Caught up with another instance's build: it distributed it; nothing is owed from here.
    if (e.reason === "catch-up") return;
    await this.#distribute(e.snapshot, e.topics);
  }

  /** Throws an error that says which step failed; the caller logs it (LiveBuild, or `#check`). */
  async #distribute(s: Snapshot, topics?: readonly string[]): Promise<void> {
    const version = s.build;
    const retry = `trying again every ${this.#intervalMs / 1000} s`;
    this.#owed = s;
    try {
      await this.#hub.publish(topics);
    } catch (err) {
      throw new Error(`the hub could not distribute its topics (${(err as Error).message}); ${retry}`, { cause: err });
    }
    try {
      await this.#cluster?.record(version);
    } catch (err) {
      const why = (err as Error).message;
      throw new Error(`the other instances could not be told of it (${why}); ${retry}`, { cause: err });
    }
    if (this.#owed === s) this.#owed = undefined;
  }

  /** `#distribute` from a check: a failure is logged here, and the next check tries again. */
  async #retry(s: Snapshot): Promise<void> {
    await this.#distribute(s).catch((err: unknown) =>
      this.#log.error(
        { version: s.build, reason: (err as Error).message },
        "the build is served, but distributing it failed",
      ),
    );
  }

  async #check(): Promise<void> {
    const cluster = this.#cluster;
    if (cluster) {
      if (!(await cluster.reachable())) {
        if (!this.#down)
          this.#log.warn("the database is unreachable: builds made live now are distributed once it is back");
        this.#down = true;
        return;
      }
      if (this.#down) {
        this.#down = false;
        this.#log.info("the database is reachable again: distributing what changed meanwhile");
        await this.#hub.publish();
      }
    }
    // A build this instance made live and still owes comes first: it is newer than the record.
    const owed = this.#owed;
    if (owed && owed !== this.#live.current) this.#owed = undefined;
    else if (owed) {
      await this.#retry(owed);
      return;
    }
    if (!cluster) return;
    const announced = await cluster.version();
    const served = this.#live.current.build;
    if (announced === undefined) await this.#retry(this.#live.current);
    else if (announced !== served) {
      const { snapshot } = await this.#live.goLive("catch-up");
      if (snapshot.build !== announced) {
        this.#log.warn(
          { announced, served: snapshot.build },
          "another instance announced a build that DIST_DIR does not hold yet; checking again later",
        );
      }
    }
  }

  #arm(): void {
    if (this.#closed) return;
    this.#cancel = this.#clock.setTimer(() => {
      void this.check().finally(() => this.#arm());
    }, this.#intervalMs);
  }
}
