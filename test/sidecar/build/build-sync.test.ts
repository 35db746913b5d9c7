import { appendFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BuildSync, type ClusterBuilds, DISTRIBUTE } from "../../../sidecar/build/build-sync.ts";
import { LiveBuild } from "../../../sidecar/build/live-build.ts";
import { SnapshotStore } from "../../../sidecar/build/snapshot-store.ts";
import type { Offer } from "../../../sidecar/hub/deliveries.ts";
import { createLogger } from "../../../sidecar/logger.ts";
import { MANIFEST_FILE } from "../../../src/http-headers/manifest.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";

/**
 * BuildSync on a manual clock: what is retried after an outage, and how an instance that missed
 * an announcement catches up. The database is a shared in-memory record (the PostgreSQL one runs
 * in test/e2e/scale-out.test.ts); the builds, snapshots and LiveBuild are real.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const INTERVAL = 15_000;
const logger = createLogger("silent");

const built = buildBeforeAll(FIXTURE);

/** The shared record of the live build, with a switch for the outage. */
class MemoryCluster implements ClusterBuilds {
  up = true;
  live: string | undefined;
  readonly records: string[] = [];
  async record(build: string): Promise<void> {
    if (!this.up) throw new Error("connect ECONNREFUSED");
    this.live = build;
    this.records.push(build);
  }
  async announced(): Promise<string | undefined> {
    if (!this.up) throw new Error("connect ECONNREFUSED");
    return this.live;
  }
  async reachable(): Promise<boolean> {
    return this.up;
  }
}

/** A hub whose store lives in the same database: it cannot take a publish while that is down. */
function hubOn(cluster: MemoryCluster) {
  const published: (readonly string[] | undefined)[] = [];
  const offers: (Offer | undefined)[] = [];
  return {
    published,
    offers,
    async publish(topics?: readonly string[], opts?: Offer) {
      if (!cluster.up) throw new Error("connect ECONNREFUSED");
      published.push(topics);
      offers.push(opts);
    },
  };
}

async function instance(cluster: MemoryCluster, clock: ManualClock) {
  const store = await SnapshotStore.open(built.distDir);
  const live = new LiveBuild({ store, logger });
  const hub = hubOn(cluster);
  const sync = new BuildSync({ live, hub, cluster, clock, intervalMs: INTERVAL, logger });
  await sync.start();
  return { live, hub, sync };
}

/** What a deployment does to DIST_DIR: any change to the header manifest is a new build version. */
const deploy = () => appendFile(path.join(built.distDir, MANIFEST_FILE), "\n");

describe("BuildSync", () => {
  it("records the first version when the database has none, and announces each build made live", async () => {
    const cluster = new MemoryCluster();
    const a = await instance(cluster, new ManualClock());
    expect(cluster.records).toEqual([a.live.current.build]);
    await deploy();
    const { failed } = await a.live.goLive("publish", { topics: ["http://localhost:4321/feed.xml"] });
    expect(failed).toEqual([]);
    expect(cluster.live).toBe(a.live.current.build);
    expect(a.hub.published.at(-1)).toEqual(["http://localhost:4321/feed.xml"]);
    await a.sync.close();
  });

  it("distributes a build made live during an outage once the database is back, and not before", async () => {
    const clock = new ManualClock();
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clock);
    const published = a.hub.published.length;
    cluster.up = false;
    await deploy();
    const { changed, failed } = await a.live.goLive("rebuild");
    // The build is served; only its distribution failed.
    expect(changed).toBe(true);
    expect(failed).toEqual([DISTRIBUTE]);
    clock.advance(INTERVAL);
    await a.sync.idle();
    expect(a.hub.published.length).toBe(published);

    cluster.up = true;
    clock.advance(INTERVAL);
    await a.sync.idle();
    // Every topic compared with what was last distributed, then the owed build announced.
    expect(a.hub.published.slice(published)).toContainEqual(undefined);
    expect(cluster.live).toBe(a.live.current.build);
    const after = a.hub.published.length;
    clock.advance(INTERVAL);
    await a.sync.idle();
    expect(a.hub.published.length).toBe(after);
    await a.sync.close();
  });

  it("offers what it serves when the database is back, never as a revert of a newer version", async () => {
    const clock = new ManualClock();
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clock);
    await cluster.record(a.live.current.build);
    const published = a.hub.published.length;
    cluster.up = false;
    clock.advance(INTERVAL);
    await a.sync.idle();
    cluster.up = true;
    clock.advance(INTERVAL);
    await a.sync.idle();
    // Another instance may publish a newer build between this one's look at the announcement and
    // its offer: the offer must not take that version back (sidecar/hub/topic-versions.ts).
    expect(a.hub.published.slice(published)).toEqual([undefined]);
    expect(a.hub.offers.slice(published)).toEqual([{ revert: false }]);
    await a.sync.close();
  });

  it("offers no stale topics when the database is back after another instance announced a newer build", async () => {
    const [clockA, clockB] = [new ManualClock(), new ManualClock()];
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clockA);
    const b = await instance(cluster, clockB);
    cluster.up = false;
    // Both instances see the outage; a build is deployed meanwhile and its ping refused.
    clockA.advance(INTERVAL);
    clockB.advance(INTERVAL);
    await Promise.all([a.sync.idle(), b.sync.idle()]);
    await deploy();
    cluster.up = true;
    // A checks first: it finds the build, distributes and announces it.
    clockA.advance(INTERVAL);
    await a.sync.idle();
    expect(cluster.live).toBe(a.live.current.build);
    const bPublished = b.hub.published.length;
    // B, still on the older build, must not offer it: the hub would send it out as a revert.
    clockB.advance(INTERVAL);
    await b.sync.idle();
    expect(b.hub.published.length).toBe(bPublished);
    expect(b.live.current.build).toBe(cluster.live);
    await Promise.all([a.sync.close(), b.sync.close()]);
  });

  it("serves and distributes a newer build found in DIST_DIR that no instance announced, once", async () => {
    const clock = new ManualClock();
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clock);
    const before = a.live.current.build;
    const published = a.hub.published.length;
    // A deployment whose ping never arrived: nothing but the regular check sees it.
    await deploy();
    clock.advance(INTERVAL);
    await a.sync.idle();
    expect(a.live.current.build).not.toBe(before);
    expect(cluster.live).toBe(a.live.current.build);
    expect(a.hub.published.slice(published)).toEqual([undefined]);
    clock.advance(INTERVAL);
    await a.sync.idle();
    expect(a.hub.published.length).toBe(published + 1);
    await a.sync.close();
  });

  it("catches up, without distributing, with a build in DIST_DIR that another instance announced", async () => {
    const clock = new ManualClock();
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clock);
    const b = await instance(cluster, clock);
    await deploy();
    await a.sync.publish([]);
    const bPublished = b.hub.published.length;
    clock.advance(INTERVAL);
    await b.sync.idle();
    expect(b.live.current.build).toBe(cluster.live);
    expect(b.hub.published.length).toBe(bPublished);
    await Promise.all([a.sync.close(), b.sync.close()]);
  });

  it("brings an instance that missed the announcement to the announced build on its next check, without announcing it again", async () => {
    const clock = new ManualClock();
    const cluster = new MemoryCluster();
    const a = await instance(cluster, clock);
    const b = await instance(cluster, clock);
    const records = cluster.records.length;
    await deploy();
    await a.live.goLive("publish", { topics: [] });
    const version = a.live.current.build;
    expect(cluster.live).toBe(version);
    expect(b.live.current.build).not.toBe(version);
    const bPublished = b.hub.published.length;

    clock.advance(INTERVAL);
    await Promise.all([a.sync.idle(), b.sync.idle()]);
    expect(b.live.current.build).toBe(version);
    expect(b.hub.published.length).toBe(bPublished);
    expect(cluster.records.length).toBe(records + 1);
    await Promise.all([a.sync.close(), b.sync.close()]);
  });
});
