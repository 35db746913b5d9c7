import { createHash } from "node:crypto";
import path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { ownerOnly } from "../db/owner-only.ts";
import { expiryAfterUse, type SessionStore } from "./session-store.ts";
import { systemWallClock, type WallClock } from "./session-token.ts";

/**
 * The session store of one instance without `DATABASE_URL`: each session's last use and end in
 * `DATA_DIR/mcp-sessions.sqlite`, so a restart keeps a session alive past its signed first expiry
 * (the official SDK clients do not re-initialize after the 404 a forgotten session gets). The
 * rules are the PostgreSQL store's (pg-session-store.ts): ids kept as their SHA-256, a use written
 * only when it moves the expiry by more than a minute (or a tenth of the idle timeout, when
 * shorter), rows past `maxEntries` dropped closest to their expiry first.
 */

export const SESSIONS_FILE = "mcp-sessions.sqlite";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id_hash BLOB PRIMARY KEY,
  expires_at INTEGER NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mcp_sessions_by_expiry ON mcp_sessions (expires_at);
`;

const key = (id: string) => createHash("sha256").update(id).digest();

/** A use writes only when it moves the recorded expiry by more than this. */
const WRITE_STEP_MS = 60_000;

export interface SqliteSessionStoreOptions {
  /** The idle timeout (`MCP_SESSION_TTL_MS`). */
  idleMs: number;
  /** Rows kept at most (default 10,000). */
  maxEntries?: number;
  /** How often expired rows are deleted (default 60 s; 0 = only when `prune()` is called). */
  pruneIntervalMs?: number;
  clock?: WallClock;
}

export class SqliteSessionStore implements SessionStore {
  readonly #db: DatabaseSync;
  readonly #read: StatementSync;
  readonly #renew: StatementSync;
  readonly #end: StatementSync;
  readonly #prune: StatementSync;
  readonly #idleMs: number;
  readonly #step: number;
  readonly #max: number;
  readonly #clock: WallClock;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(file: string, opts: SqliteSessionStoreOptions) {
    ownerOnly(file);
    this.#db = new DatabaseSync(file);
    this.#db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    this.#db.exec(SCHEMA);
    this.#read = this.#db.prepare("SELECT expires_at, ended FROM mcp_sessions WHERE id_hash = ?");
    // Never revives an ended row.
    this.#renew = this.#db.prepare(
      `INSERT INTO mcp_sessions (id_hash, expires_at) VALUES (?, ?)
       ON CONFLICT (id_hash) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at) WHERE NOT ended`,
    );
    this.#end = this.#db.prepare(
      `INSERT INTO mcp_sessions (id_hash, expires_at, ended) VALUES (?, ?, 1)
       ON CONFLICT (id_hash) DO UPDATE SET ended = 1, expires_at = max(expires_at, excluded.expires_at)`,
    );
    this.#prune = this.#db.prepare(
      `DELETE FROM mcp_sessions WHERE expires_at <= ? OR id_hash IN (
         SELECT id_hash FROM mcp_sessions ORDER BY expires_at DESC LIMIT -1 OFFSET ?)`,
    );
    this.#idleMs = opts.idleMs;
    this.#step = Math.min(WRITE_STEP_MS, Math.floor(opts.idleMs / 10));
    this.#max = opts.maxEntries ?? 10_000;
    this.#clock = opts.clock ?? systemWallClock;
    const every = opts.pruneIntervalMs ?? 60_000;
    if (every > 0) {
      this.#timer = setInterval(() => this.prune(), every);
      this.#timer.unref();
    }
  }

  /** The store of `dataDir`. */
  static open(dataDir: string, opts: SqliteSessionStoreOptions): SqliteSessionStore {
    return new SqliteSessionStore(path.join(dataDir, SESSIONS_FILE), opts);
  }

  async use(id: string, firstExpiry: number): Promise<number | undefined> {
    const now = this.#clock.now();
    const hash = key(id);
    const row = this.#read.get(hash) as { expires_at: number; ended: number } | undefined;
    const record = row && { expiresAt: row.expires_at, ended: row.ended !== 0 };
    const next = expiryAfterUse(record, firstExpiry, now, this.#idleMs);
    if (next === undefined) return undefined;
    const known = Math.max(firstExpiry, record?.expiresAt ?? 0);
    if (next - known <= this.#step) return known;
    this.#renew.run(hash, next);
    return next;
  }

  async end(id: string, until: number): Promise<void> {
    if (until > this.#clock.now()) this.#end.run(key(id), until);
  }

  /** Deletes expired rows, then the rows past `maxEntries` closest to their expiry; returns how many. */
  prune(): number {
    return Number(this.#prune.run(this.#clock.now(), this.#max).changes);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    if (this.#db.isOpen) this.#db.close();
  }
}
