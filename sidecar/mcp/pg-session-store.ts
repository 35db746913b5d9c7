import { createHash } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";
import { ANSWER_WITHIN_MS, answerWithin } from "../db/postgres.ts";
import { expiryAfterUse, type SessionRecord, type SessionStore } from "./session-store.ts";
import { systemWallClock, type WallClock } from "./session-token.ts";

export interface PgSessionStoreOptions {
  /** The idle timeout (`MCP_SESSION_TTL_MS`). */
  idleMs: number;
  /** Rows kept at most (default 10,000); past it, the rows closest to their expiry go first. */
  maxEntries?: number;
  /** How often expired rows are deleted (default 60 s; 0 = only when `prune()` is called). */
  pruneIntervalMs?: number;
  /** A use or an end waits this long for the database (default 2 s, as readiness does). */
  answerWithinMs?: number;
  clock?: WallClock;
  logger?: Logger;
}

/** An id is kept as its SHA-256: fixed-size rows, and the table never holds a usable bearer value. */
const key = (id: string) => createHash("sha256").update(id).digest();

/** A use writes only when it moves the recorded expiry by more than this: one write a minute per busy session at most. */
const WRITE_STEP_MS = 60_000;

/**
 * The session store shared by every instance under `DATABASE_URL` (table `mcp_sessions`,
 * migration 004): a use on one instance keeps the session alive on all, and a `DELETE` on one
 * ends it on all. Times are compared with the injected clock, never the server's, so they agree
 * with session-token.ts. A use reads the row, and writes it only when that moves the expiry by
 * more than a minute (or a tenth of the idle timeout, when shorter): a session then expires
 * between that step and the full idle timeout after its last use.
 *
 * While PostgreSQL is unreachable a use answers "live" (and logs), so MCP keeps serving like the
 * other reads do: at worst an idle or ended session is served, which grants nothing on a
 * read-only public service. `end` rejects instead, so the DELETE is not acknowledged as if it had
 * been recorded. A database that does not answer at all (a partition) counts as unreachable after
 * `answerWithinMs`, rather than holding each request for the pool's connect or query timeout.
 */
export class PgSessionStore implements SessionStore {
  readonly #pool: pg.Pool;
  readonly #idleMs: number;
  readonly #step: number;
  readonly #max: number;
  readonly #clock: WallClock;
  readonly #log: Logger | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #answerWithin: number;

  constructor(pool: pg.Pool, opts: PgSessionStoreOptions) {
    this.#pool = pool;
    this.#idleMs = opts.idleMs;
    this.#step = Math.min(WRITE_STEP_MS, Math.floor(opts.idleMs / 10));
    this.#max = opts.maxEntries ?? 10_000;
    this.#clock = opts.clock ?? systemWallClock;
    this.#log = opts.logger;
    this.#answerWithin = opts.answerWithinMs ?? ANSWER_WITHIN_MS;
    const every = opts.pruneIntervalMs ?? 60_000;
    if (every > 0) {
      this.#timer = setInterval(() => {
        this.prune().catch((err: unknown) => this.#log?.warn({ err: (err as Error).message }, "session prune failed"));
      }, every);
      this.#timer.unref();
    }
  }

  async use(id: string, firstExpiry: number): Promise<number | undefined> {
    const now = this.#clock.now();
    let record: SessionRecord | undefined;
    try {
      const { rows } = await answerWithin(
        this.#pool.query<{ expires_at: string; ended: boolean }>(
          "SELECT expires_at, ended FROM mcp_sessions WHERE id_hash = $1",
          [key(id)],
        ),
        this.#answerWithin,
      );
      const row = rows[0];
      record = row && { expiresAt: Number(row.expires_at), ended: row.ended };
    } catch (err) {
      this.#log?.warn({ err: (err as Error).message }, "session lookup failed; treating the session as live");
      return now + this.#idleMs;
    }
    const next = expiryAfterUse(record, firstExpiry, now, this.#idleMs);
    if (next === undefined) return undefined;
    const known = Math.max(firstExpiry, record?.expiresAt ?? 0);
    if (next - known <= this.#step) return known;
    try {
      // Never revives an ended row, even one ended between the read and this write.
      await answerWithin(
        this.#pool.query(
          `INSERT INTO mcp_sessions (id_hash, expires_at) VALUES ($1, $2)
           ON CONFLICT (id_hash) DO UPDATE SET expires_at = GREATEST(mcp_sessions.expires_at, EXCLUDED.expires_at)
           WHERE NOT mcp_sessions.ended`,
          [key(id), next],
        ),
        this.#answerWithin,
      );
    } catch (err) {
      this.#log?.warn({ err: (err as Error).message }, "session use not recorded");
    }
    return next;
  }

  async end(id: string, until: number): Promise<void> {
    if (until <= this.#clock.now()) return;
    await answerWithin(
      this.#pool.query(
        `INSERT INTO mcp_sessions (id_hash, expires_at, ended) VALUES ($1, $2, true)
         ON CONFLICT (id_hash) DO UPDATE SET ended = true, expires_at = GREATEST(mcp_sessions.expires_at, EXCLUDED.expires_at)`,
        [key(id), until],
      ),
      this.#answerWithin,
    );
  }

  /**
   * Deletes expired rows, then the rows past `maxEntries` closest to their expiry (the memory
   * store's rule); returns how many. Between runs the table grows by at most the sessions the
   * rate limit lets through in one interval.
   */
  async prune(): Promise<number> {
    const { rowCount } = await this.#pool.query(
      `DELETE FROM mcp_sessions WHERE expires_at <= $1 OR id_hash IN (
         SELECT id_hash FROM mcp_sessions ORDER BY expires_at DESC OFFSET $2)`,
      [this.#clock.now(), this.#max],
    );
    return rowCount ?? 0;
  }

  /** Rows held now, expired ones included until the next prune. */
  async size(): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>("SELECT count(*)::int AS n FROM mcp_sessions");
    return rows[0]?.n ?? 0;
  }

  /** Stops the prune timer; the pool belongs to the shared state and is closed there. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
  }
}
