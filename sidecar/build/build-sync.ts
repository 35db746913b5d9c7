import type { Logger } from "pino";
import type { Clock } from "../clock.ts";
import type { Offer } from "../hub/deliveries.ts";
import type { LiveBuild, LiveEvent } from "./live-build.ts";
import type { Snapshot } from "./snapshot.ts";

/** The listener name `BuildSync` subscribes under. */
export const DISTRIBUTE = "distributing it";

/** The instances' shared record of the live build (PostgreSQL, sidecar/db/build-broadcast.ts). */
export interface ClusterBuilds {
  /** Records `build` (`Snapshot.build`) as live and notifies every instance. */
  record(build: string): Promise<void>;
  /** The build last recorded, or undefined before the first. */
  announced(): Promise<string | undefined>;
  reachable(): Promise<boolean>;
}

/**
 * Takes each build this instance makes live to everyone else: the hub distributes its topics
 * (`hub.publish`, which offers each topic to PostgreSQL or SQLite and queues the deliveries it
 * owes) and, with a shared database, its identity is recorded and announced to the other
 * instances. It is the one owner of retrying that: every `intervalMs`, and whenever an
 * announcement arrives, it checks:
 *
 * - a build this instance made live could not be distributed (database down): it is tried again;
 * - the database has just come back: the hub compares every topic with what it last distributed
 *   (`hub_topic_versions`) and distributes the difference;
 * - DIST_DIR holds a build written after the one served that no instance announced (a deployment
 *   whose ping was refused during an outage, or whose load failed): it is served and distributed
 *   (`found`);
 * - the announced build differs from the one served: DIST_DIR is loaded again (`catch-up`), so an
 *   instance that missed a notice converges within one interval.
 *
 * The last three need the shared database. The timer runs on an injected clock, so tests move time
 * instead of sleeping.
 */
export class BuildSync {
  readonly #live: LiveBuild;
  readonly #hub: { publish(topics?: readonly string[], opts?: Offer): Promise<unknown> };
  readonly #cluster?: ClusterBuilds;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #log: Logger;
  /** A build this instance made live whose distribution has not succeeded yet. */
  #owed: Snapshot | undefined;
  #down = false;
  /** A newer build found in DIST_DIR that could not be loaded, so it is logged once, not every check. */
  #unloadable: string | undefined;
  #checking: Promise<void> | undefined;
  #again = false;
  #cancel: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  #closed = false;

  constructor(deps: {
    live: LiveBuild;
    hub: { publish(topics?: readonly string[], opts?: Offer): Promise<unknown> };
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
   * Subscribes to the live build and arms the timer. The build served from the start is owed and
   * distributed by the first check when this process made it (`LiveBuild.started`), or with a
   * shared database: the hub has just offered its topics (`Hub.start`), so it is live, and it is
   * recorded too (a deployment that restarts the instances sends no ping).
   */
  start(): Promise<void> {
    this.#unsubscribe = this.#live.onLive(DISTRIBUTE, (e) => this.#onLive(e));
    if (this.#live.started === "rebuild" || this.#cluster) this.#owed = this.#live.current;
    this.#arm();
    return this.check();
  }

  /**
   * A publish ping: loads DIST_DIR and distributes the named topics. Never rejects: a load that
   * fails is logged (and, with a shared database, the next check finds the build again), and a
   * distribution that fails stays owed to the next check.
   */
  async publish(topics: readonly string[]): Promise<void> {
    await this.#live.goLive("publish", { topics }).catch((err: unknown) => {
      const retried = this.#cluster ? `; the next check, within ${this.#intervalMs / 1000} s, tries again` : "";
      this.#log.error({ err }, `the build in DIST_DIR cannot be loaded; still serving the last good build${retried}`);
    });
  }

  /** One check now (the timer and an announcement call this); calls meanwhile coalesce into one more. */
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
    const retry = `trying again every ${this.#intervalMs / 1000} s`;
    this.#owed = s;
    try {
      await this.#hub.publish(topics);
    } catch (err) {
      throw new Error(`the hub could not distribute its topics (${(err as Error).message}); ${retry}`, { cause: err });
    }
    try {
      await this.#cluster?.record(s.build);
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
        { build: s.build, reason: (err as Error).message },
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
        // An instance that missed a newer announcement meanwhile must not offer its older topics
        // (the hub would send them out as a revert); the catch-up below loads the newer build.
        const announced = await cluster.announced();
        if (announced === undefined || announced === this.#live.current.build) {
          this.#log.info("the database is reachable again: distributing what changed meanwhile");
          // Never a revert: another instance may publish a newer build between the check and this.
          await this.#hub.publish(undefined, { revert: false });
        }
        this.#down = false;
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
    const announced = await cluster.announced();
    const onDisk = await this.#live.newerOnDisk();
    if (onDisk !== undefined && onDisk !== announced) {
      // Served and distributed by LiveBuild's listeners, this one included; a failure stays owed.
      await this.#live.goLive("found").then(
        () => {
          this.#unloadable = undefined;
        },
        (err: unknown) => {
          if (this.#unloadable !== onDisk) {
            this.#log.error(
              { err, build: onDisk },
              `DIST_DIR holds a newer build that cannot be loaded; still serving the last good build; trying again every ${this.#intervalMs / 1000} s`,
            );
          }
          this.#unloadable = onDisk;
        },
      );
    } else if (announced === undefined) {
      await this.#retry(this.#live.current);
    } else if (announced !== this.#live.current.build) {
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
