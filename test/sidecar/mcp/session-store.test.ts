import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool } from "../../../sidecar/db/postgres.ts";
import { PgSessionStore } from "../../../sidecar/mcp/pg-session-store.ts";
import { MemorySessionStore, type SessionStore } from "../../../sidecar/mcp/session-store.ts";
import { SESSIONS_FILE, SqliteSessionStore } from "../../../sidecar/mcp/sqlite-session-store.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import { migratedPools, postgresSuitesMissing } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * The SessionStore contract (sessions expire after idleness; DELETE ends them), run against the
 * in-memory store, the SQLite one of a single instance and the PostgreSQL one that `DATABASE_URL`
 * turns on, then what only the SQLite store does (pruning), and the shared store: one table for every instance, bounded writes, pruning, and staying usable while the
 * database is down.
 */

const IDLE = 600_000;
const silent = pino({ level: "silent" });
const unavailable = await postgresSuitesMissing();

const databases = migratedPools(silent);
const freshPool = () => databases.fresh();
const pools: pg.Pool[] = [];
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  await databases.close();
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

async function sqliteStore(clock: ManualClock, maxEntries?: number): Promise<SqliteSessionStore> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-session-store-"));
  folders.push(dir);
  return SqliteSessionStore.open(dir, { idleMs: IDLE, clock, maxEntries, pruneIntervalMs: 0 });
}

const mode = (f: string) => statSync(f).mode & 0o777;

type Make = (clock: ManualClock) => Promise<SessionStore>;
const stores: { name: string; make: Make; skip: boolean }[] = [
  { name: "memory", make: async (clock) => new MemorySessionStore({ idleMs: IDLE, clock }), skip: false },
  { name: "sqlite", make: (clock) => sqliteStore(clock), skip: false },
  {
    name: "postgres",
    make: async (clock) => new PgSessionStore(await freshPool(), { idleMs: IDLE, clock, pruneIntervalMs: 0 }),
    skip: unavailable !== undefined,
  },
];

for (const { name, make, skip } of stores) {
  describeWithPackage(skip ? unavailable : undefined, `${name} session store`, () => {
    it("keeps a session used every half timeout live for many timeouts, and no longer once it idles", async () => {
      const clock = new ManualClock();
      const store = await make(clock);
      const first = clock.now() + IDLE;
      for (let i = 0; i < 10; i++) {
        clock.advance(IDLE / 2);
        expect(await store.use("a", first), `use ${i}`).toBeGreaterThan(clock.now());
      }
      clock.advance(IDLE);
      expect(await store.use("a", first)).toBeUndefined();
      await store.close?.();
    });

    it("lets a session never used since initialize live until its signed first expiry", async () => {
      const clock = new ManualClock();
      const store = await make(clock);
      const first = clock.now() + IDLE;
      clock.advance(IDLE - 1);
      expect(await store.use("b", first)).toBe(clock.now() + IDLE);
      expect(await store.use("c", first - 1)).toBeUndefined();
      await store.close?.();
    });

    it("refuses an ended session from then on, and a use never revives it", async () => {
      const clock = new ManualClock();
      const store = await make(clock);
      const first = clock.now() + IDLE;
      const until = (await store.use("d", first)) as number;
      await store.end("d", until);
      expect(await store.use("d", first)).toBeUndefined();
      await store.end("d", until);
      clock.advance(IDLE / 2);
      expect(await store.use("d", first)).toBeUndefined();
      // Past `until` the record may go: the id's own signed expiry has passed by then.
      clock.advance(IDLE);
      expect(await store.use("d", first)).toBeUndefined();
      await store.close?.();
    }, 60_000);
  });
}

describe("sqlite session store only", () => {
  it("prunes expired rows, then the rows past the cap closest to expiry", async () => {
    const clock = new ManualClock();
    const store = await sqliteStore(clock, 3);
    await store.end("soon", clock.now() + 10);
    for (const [id, n] of [
      ["mid", 2],
      ["late", 3],
      ["new", 3],
      ["newest", 4],
    ] as const) {
      await store.end(id, clock.now() + n * IDLE);
    }
    clock.advance(20);
    // "soon" expired; of the 4 left, "mid" is closest to its expiry and goes over the cap.
    expect(store.prune()).toBe(2);
    expect(await store.use("newest", clock.now() + IDLE)).toBeUndefined();
    expect(await store.use("mid", clock.now() + IDLE)).toBe(clock.now() + IDLE);
    await store.close();
  });

  it("is a file readable by its owner only, with its WAL file, as hub.sqlite is", async () => {
    const clock = new ManualClock();
    const store = await sqliteStore(clock);
    await store.end("a-session", clock.now() + IDLE);
    const [dir] = folders.slice(-1);
    const db = path.join(dir as string, SESSIONS_FILE);
    expect([mode(db), mode(`${db}-wal`)]).toEqual([0o600, 0o600]);
    await store.close();
  });
});

describe("memory session store only", () => {
  it("at the cap, forgets expired entries first, then the least recently used", async () => {
    const clock = new ManualClock();
    const store = new MemorySessionStore({ idleMs: IDLE, clock, maxEntries: 3 });
    const first = clock.now() + IDLE;
    for (const id of ["a", "b", "c"]) await store.use(id, first);
    clock.advance(IDLE / 2);
    await store.use("b", first);
    await store.use("c", first);
    clock.advance(IDLE / 2 + 1);
    // "a" expired: it goes, and "b" and "c" stay.
    await store.use("d", clock.now() + IDLE);
    expect(store.size).toBe(3);
    expect(await store.use("b", first)).toBeDefined();
    // Full of live entries: the least recently used ("c") falls back to its signed first expiry, long past.
    await store.use("e", clock.now() + IDLE);
    expect(await store.use("c", first)).toBeUndefined();
    expect(store.prune()).toBe(0);
  });
});

describeWithPackage(unavailable, "postgres session store only", () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = await freshPool();
  }, 120_000);

  it("is one table for every instance: a use or an end through one store holds through another", async () => {
    const clock = new ManualClock();
    const other = createPool(`${(pool.options as { connectionString: string }).connectionString}`, silent);
    pools.push(other);
    const a = new PgSessionStore(pool, { idleMs: IDLE, clock, pruneIntervalMs: 0 });
    const b = new PgSessionStore(other, { idleMs: IDLE, clock, pruneIntervalMs: 0 });
    const first = clock.now() + IDLE;
    clock.advance(IDLE / 2);
    await a.use("shared-id", first);
    clock.advance(IDLE * 0.9);
    // Past its first expiry, alive on B because A saw it used.
    expect(await b.use("shared-id", first)).toBeDefined();
    await a.end("shared-id", clock.now() + IDLE);
    expect(await b.use("shared-id", first)).toBeUndefined();
    // Only a hash is stored, never the id itself.
    const { rows } = await pool.query("SELECT id_hash FROM mcp_sessions");
    expect(rows.some((r) => Buffer.from(r.id_hash).includes("shared-id"))).toBe(false);
  });

  it("writes a use only when it moves the recorded expiry by more than a minute", async () => {
    const clock = new ManualClock();
    await pool.query("DELETE FROM mcp_sessions");
    const store = new PgSessionStore(pool, { idleMs: IDLE, clock, pruneIntervalMs: 0 });
    const recorded = async () => Number((await pool.query("SELECT expires_at FROM mcp_sessions")).rows[0]?.expires_at);
    const first = clock.now() + IDLE;
    clock.advance(61_000);
    await store.use("busy", first);
    const written = await recorded();
    expect(written).toBe(clock.now() + IDLE);
    for (let i = 0; i < 5; i++) {
      clock.advance(10_000);
      await store.use("busy", first);
    }
    expect(await recorded()).toBe(written);
    clock.advance(11_000);
    await store.use("busy", first);
    expect(await recorded()).toBe(clock.now() + IDLE);
  });

  it("prunes expired rows, then the rows past the cap closest to expiry", async () => {
    const clock = new ManualClock();
    await pool.query("DELETE FROM mcp_sessions");
    const store = new PgSessionStore(pool, { idleMs: IDLE, clock, maxEntries: 3, pruneIntervalMs: 0 });
    await store.end("soon", clock.now() + 10);
    await store.end("mid", clock.now() + 2 * IDLE);
    await store.end("late", clock.now() + 3 * IDLE);
    await store.end("new", clock.now() + 3 * IDLE);
    await store.end("newest", clock.now() + 4 * IDLE);
    expect(await store.size()).toBe(5);
    clock.advance(20);
    // "soon" expired; of the 4 left, "mid" is closest to its expiry and goes over the cap.
    expect(await store.prune()).toBe(2);
    expect(await store.size()).toBe(3);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM mcp_sessions WHERE ended");
    expect(rows[0].n).toBe(3);
  });

  it("prunes on its own timer", async () => {
    await pool.query("DELETE FROM mcp_sessions");
    const store = new PgSessionStore(pool, { idleMs: IDLE, pruneIntervalMs: 50 });
    await pool.query("INSERT INTO mcp_sessions (id_hash, expires_at) VALUES ('\\x00', 1)");
    const end = Date.now() + 10_000;
    while ((await store.size()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await store.size()).toBe(0);
    await store.close();
  });

  it("answers live while the database is unreachable, and refuses to record an end", async () => {
    const dead = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    pools.push(dead);
    const store = new PgSessionStore(dead, { idleMs: IDLE, pruneIntervalMs: 0 });
    expect(await store.use("any", Date.now() - 1)).toBeGreaterThan(Date.now());
    await expect(store.end("any", Date.now() + IDLE)).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
