import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPool } from "../../../sidecar/db/postgres.ts";
import { PgRevocationStore } from "../../../sidecar/mcp/pg-revocation-store.ts";
import { MemoryRevocationStore, type SessionRevocationStore } from "../../../sidecar/mcp/revocation-store.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import { migratedPools, postgresUnavailable } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * The SessionRevocationStore contract, run against the one-process store and the PostgreSQL one
 * that `DATABASE_URL` turns on, then what only the shared store does: one table for every
 * instance, pruning, and staying usable for reads while the database is down.
 */

const TTL = 60_000;
const silent = pino({ level: "silent" });
const unavailable = await postgresUnavailable();
if (unavailable && process.env.CI) throw new Error(`PostgreSQL suites cannot run in CI: ${unavailable}`);
if (unavailable) process.stderr.write(`Skipping the PostgreSQL revocation suite: ${unavailable}\n`);

const databases = migratedPools(silent);
const freshPool = () => databases.fresh();
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  await databases.close();
});

type Make = (clock: ManualClock) => Promise<SessionRevocationStore>;
const stores: { name: string; make: Make; skip: boolean }[] = [
  { name: "memory", make: async (clock) => new MemoryRevocationStore({ clock }), skip: false },
  {
    name: "postgres",
    make: async (clock) => new PgRevocationStore(await freshPool(), { clock, pruneIntervalMs: 0 }),
    skip: unavailable !== undefined,
  },
];

for (const { name, make, skip } of stores) {
  describeWithPackage(skip ? unavailable : undefined, `${name} revocation store`, () => {
    it("remembers a revoked id until its expiry, then forgets it", async () => {
      const clock = new ManualClock();
      const store = await make(clock);
      await store.revoke("a", clock.now() + TTL);
      expect(await store.isRevoked("a")).toBe(true);
      expect(await store.isRevoked("b")).toBe(false);
      clock.advance(TTL - 1);
      expect(await store.isRevoked("a")).toBe(true);
      clock.advance(1);
      expect(await store.isRevoked("a")).toBe(false);
      await store.close?.();
    });

    it("ignores an id that has already expired, and takes a second DELETE of the same id", async () => {
      const clock = new ManualClock();
      const store = await make(clock);
      await store.revoke("old", clock.now());
      expect(await store.isRevoked("old")).toBe(false);
      // An id carries one expiry, so a repeated DELETE revokes it again with the same one.
      const exp = clock.now() + TTL;
      await store.revoke("twice", exp);
      await store.revoke("twice", exp);
      expect(await store.isRevoked("twice")).toBe(true);
      clock.advance(TTL);
      expect(await store.isRevoked("twice")).toBe(false);
      await store.close?.();
    }, 60_000);
  });
}

describeWithPackage(unavailable, "postgres revocation store only", () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = await freshPool();
  }, 120_000);

  it("is one table for every instance: a revoke through one store is seen by another pool's store", async () => {
    const clock = new ManualClock();
    const other = createPool(`${(pool.options as { connectionString: string }).connectionString}`, silent);
    pools.push(other);
    const a = new PgRevocationStore(pool, { clock, pruneIntervalMs: 0 });
    const b = new PgRevocationStore(other, { clock, pruneIntervalMs: 0 });
    await a.revoke("shared-id", clock.now() + TTL);
    expect(await b.isRevoked("shared-id")).toBe(true);
    // Only a hash is stored, never the id itself.
    const { rows } = await pool.query("SELECT id_hash FROM mcp_session_revocations");
    expect(rows.some((r) => Buffer.from(r.id_hash).includes("shared-id"))).toBe(false);
  });

  it("prunes expired rows, then the rows past the cap closest to expiry", async () => {
    const clock = new ManualClock();
    await pool.query("DELETE FROM mcp_session_revocations");
    const store = new PgRevocationStore(pool, { clock, maxEntries: 3, pruneIntervalMs: 0 });
    await store.revoke("soon", clock.now() + 10);
    await store.revoke("mid", clock.now() + 2 * TTL);
    await store.revoke("late", clock.now() + 3 * TTL);
    await store.revoke("new", clock.now() + 3 * TTL);
    await store.revoke("newest", clock.now() + 4 * TTL);
    expect(await store.size()).toBe(5);
    clock.advance(20);
    // "soon" expired; of the 4 left, "mid" is closest to its expiry and goes over the cap.
    expect(await store.prune()).toBe(2);
    expect(await store.size()).toBe(3);
    expect(await store.isRevoked("mid")).toBe(false);
    for (const id of ["late", "new", "newest"]) expect(await store.isRevoked(id)).toBe(true);
  });

  it("prunes on its own timer", async () => {
    await pool.query("DELETE FROM mcp_session_revocations");
    const store = new PgRevocationStore(pool, { pruneIntervalMs: 50 });
    await pool.query("INSERT INTO mcp_session_revocations (id_hash, expires_at) VALUES ('\\x00', 1)");
    const end = Date.now() + 10_000;
    while ((await store.size()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await store.size()).toBe(0);
    await store.close();
  });

  it("answers not revoked while the database is unreachable, and refuses to record a revoke", async () => {
    const dead = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    pools.push(dead);
    const store = new PgRevocationStore(dead, { pruneIntervalMs: 0 });
    expect(await store.isRevoked("any")).toBe(false);
    await expect(store.revoke("any", Date.now() + TTL)).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
