import { createHash } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";
import type { SessionRevocationStore } from "./revocation-store.ts";
import { systemWallClock, type WallClock } from "./session-token.ts";

export interface PgRevocationStoreOptions {
  /** Rows kept at most (default 10,000); past it, the rows closest to their expiry go first. */
  maxEntries?: number;
  /** How often expired rows are deleted (default 60 s; 0 = only when `prune()` is called). */
  pruneIntervalMs?: number;
  clock?: WallClock;
  logger?: Logger;
}

/** An id is kept as its SHA-256: fixed-size rows, and the table never holds a usable bearer value. */
const key = (id: string) => createHash("sha256").update(id).digest();

/**
 * The revocation store shared by every instance under `DATABASE_URL` (table
 * `mcp_session_revocations`, migration 002): a `DELETE /mcp` on one instance makes the id
 * unusable on all. Expiry is compared with the injected clock, never the server's, so it agrees
 * with the signature check of session-token.ts.
 *
 * While PostgreSQL is unreachable `isRevoked` answers false (and logs), so MCP keeps serving like
 * the other reads do: the worst case is a client using the id it ended itself, which grants
 * nothing on a read-only public service. `revoke` rejects instead, so the DELETE is not
 * acknowledged as if it had been recorded.
 */
export class PgRevocationStore implements SessionRevocationStore {
  readonly #pool: pg.Pool;
  readonly #max: number;
  readonly #clock: WallClock;
  readonly #log: Logger | undefined;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(pool: pg.Pool, opts: PgRevocationStoreOptions = {}) {
    this.#pool = pool;
    this.#max = opts.maxEntries ?? 10_000;
    this.#clock = opts.clock ?? systemWallClock;
    this.#log = opts.logger;
    const every = opts.pruneIntervalMs ?? 60_000;
    if (every > 0) {
      this.#timer = setInterval(() => {
        this.prune().catch((err: unknown) =>
          this.#log?.warn({ err: (err as Error).message }, "revocation prune failed"),
        );
      }, every);
      this.#timer.unref();
    }
  }

  async revoke(id: string, expiresAt: number): Promise<void> {
    if (expiresAt <= this.#clock.now()) return;
    await this.#pool.query(
      `INSERT INTO mcp_session_revocations (id_hash, expires_at) VALUES ($1, $2)
       ON CONFLICT (id_hash) DO UPDATE SET expires_at = GREATEST(mcp_session_revocations.expires_at, EXCLUDED.expires_at)`,
      [key(id), expiresAt],
    );
  }

  async isRevoked(id: string): Promise<boolean> {
    try {
      const { rowCount } = await this.#pool.query(
        "SELECT 1 FROM mcp_session_revocations WHERE id_hash = $1 AND expires_at > $2",
        [key(id), this.#clock.now()],
      );
      return (rowCount ?? 0) > 0;
    } catch (err) {
      this.#log?.warn({ err: (err as Error).message }, "revocation lookup failed; treating the session as live");
      return false;
    }
  }

  /**
   * Deletes expired rows, then the rows past `maxEntries` closest to their expiry (the memory
   * store's rule); returns how many. Between runs the table grows by at most the DELETEs the rate
   * limit lets through in one interval.
   */
  async prune(): Promise<number> {
    const { rowCount } = await this.#pool.query(
      `DELETE FROM mcp_session_revocations WHERE expires_at <= $1 OR id_hash IN (
         SELECT id_hash FROM mcp_session_revocations ORDER BY expires_at DESC OFFSET $2)`,
      [this.#clock.now(), this.#max],
    );
    return rowCount ?? 0;
  }

  /** Rows held now, expired ones included until the next prune. */
  async size(): Promise<number> {
    const { rows } = await this.#pool.query<{ n: number }>("SELECT count(*)::int AS n FROM mcp_session_revocations");
    return rows[0]?.n ?? 0;
  }

  /** Stops the prune timer; the pool belongs to the shared state and is closed there. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
  }
}
