import pg from "pg";
import type { Logger } from "pino";
import { MIGRATIONS } from "./migrations.ts";

/**
 * The PostgreSQL connection shared by everything that needs shared state when `DATABASE_URL` is
 * set: the hub store, the delivery queue (pg-boss keeps its own pool on the same database), the
 * live-build announcement and readiness. `pg` is pure JavaScript; no native addon.
 */

/** int8 columns hold epoch milliseconds and ids, far below 2^53: read them as numbers, not strings. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  /** Connections in this process's pool. Default 10. */
  max?: number;
  /** A query waits this long for a free connection or a connect before failing. Default 5 s. */
  connectTimeoutMs?: number;
}

/**
 * The bound of each query on pg-boss's own pools (the job queues). A connection a partition caught
 * may stay silent after it heals (a lost NAT or firewall state drops its packets); without a bound
 * its query waited for TCP to give up, and the queue's few connections with it. Longer than the
 * app pool's 15 s: pg-boss's maintenance deletes and reindexes in statements that may take seconds.
 */
export const QUEUE_QUERY_TIMEOUT_MS = 30_000;

/** Spread into pg-boss's options, which it hands to its `pg.Pool` whole (its types omit `query_timeout`). */
export const QUEUE_POOL_OPTIONS: Pick<pg.PoolConfig, "query_timeout"> = { query_timeout: QUEUE_QUERY_TIMEOUT_MS };

export function createPool(url: string, log: Logger, opts: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    // A query stuck behind a dead server must not hold a request forever.
    query_timeout: 15_000,
    types,
    application_name: "public-reviews",
  });
  // An idle client losing its connection (server restart) emits here; without a listener it would crash the process.
  pool.on("error", (err) => log.warn({ err: err.message }, "idle PostgreSQL connection lost"));
  return pool;
}

/** Any instance may start first, or two at once: the lock makes the second wait, then find nothing to do. */
const MIGRATION_LOCK = "public-reviews:migrations";

/**
 * Applies the migrations this database has not seen, in order, each in its own transaction, under
 * a session advisory lock so concurrent starts never run one twice. Idempotent: a second call
 * applies nothing. Refuses a database holding a migration this version does not know. Returns the
 * ids it applied.
 */
export async function migrate(pool: pg.Pool, log: Logger): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ id: string }>("SELECT id FROM schema_migrations");
    const done = new Set(rows.map((r) => r.id));
    // A newer version's migrations added what this one would write around (docs/deployment.md).
    const known = new Set(MIGRATIONS.map((m) => m.id));
    const unknown = [...done].filter((id) => !known.has(id)).sort();
    if (unknown.length > 0) {
      const [it, them] = unknown.length === 1 ? ["migration", "it"] : ["migrations", "them"];
      throw new Error(
        `its schema is newer than this version: it has ${it} ${unknown.join(", ")}, which this version does not know; run the version that applied ${them} on every instance`,
      );
    }
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query("INSERT INTO schema_migrations (id) VALUES ($1)", [m.id]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.id} failed: ${(err as Error).message}`);
      }
      applied.push(m.id);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  if (applied.length > 0) log.info({ applied }, "database migrated");
  return applied;
}

/** How long readiness, and what keeps serving through an outage, wait for the database. */
export const ANSWER_WITHIN_MS = 2_000;

/**
 * `query`, or a rejection once it has not answered within `ms` (it then settles unheard): a database
 * that stopped answering without refusing (a partition) holds a query for the pool's timeouts.
 */
export function answerWithin<T>(query: Promise<T>, ms = ANSWER_WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  query.catch(() => undefined);
  return Promise.race([query, late]).finally(() => clearTimeout(timer));
}

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseReachable(pool: pg.Pool, timeoutMs = ANSWER_WITHIN_MS): Promise<boolean> {
  return answerWithin(pool.query("SELECT 1"), timeoutMs).then(
    () => true,
    () => false,
  );
}
