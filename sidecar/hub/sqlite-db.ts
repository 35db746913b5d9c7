import path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { ownerOnly } from "../db/owner-only.ts";
import {
  pendingFilter,
  type RequestKey,
  type Subscription,
  type SubscriptionInput,
  SubscriptionSchema,
  type Verification,
  type VerificationInput,
  VerificationSchema,
} from "./store.ts";

/**
 * Durable hub state in SQLite, synchronous (`SqliteHubStore` wraps it in the async `HubStore`
 * interface; `npm run hub:list` reads it directly) (`node:sqlite`, no native addon). WAL mode with
 * `synchronous=NORMAL` makes every committed write survive a crash of the process (`kill -9`);
 * only a power loss can take the last transactions. Two tables:
 *
 * - `subscriptions`: verified subscriptions, one per (topic, callback), with the delivery state
 *   that must outlive a restart (consecutive failures, next retry, hash of the last content
 *   delivered).
 * - `verifications`: accepted requests whose verification of intent has not finished. They are
 *   the "pending" state; on start they are verified again with a new challenge.
 *
 * All times are milliseconds since the epoch from the hub's clock.
 *
 * Rows read back are not parsed with `SubscriptionSchema`/`VerificationSchema`: this class is the
 * only writer of both tables, every value it binds is typed by those schemas' types, and the
 * columns are NOT NULL or CHECKed where the types say so; `node:sqlite` returns INTEGER as number,
 * TEXT as string and NULL as null. The selected columns and the keys of the objects built from
 * them are the schemas' keys, in order. Parsing, and even spreading the row objects `node:sqlite`
 * makes, would cost a delivery more than its SQL; test/sidecar/hub/store.test.ts checks that
 * every row equals its schema parse.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id INTEGER PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  given_callback TEXT,
  callback_host TEXT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active', 'retrying')),
  failures INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  delivered_hash TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (topic, callback)
);
CREATE INDEX IF NOT EXISTS subscriptions_by_host ON subscriptions (callback_host);
CREATE INDEX IF NOT EXISTS subscriptions_by_expiry ON subscriptions (expires_at);
CREATE TABLE IF NOT EXISTS verifications (
  id INTEGER PRIMARY KEY,
  mode TEXT NOT NULL CHECK (mode IN ('subscribe', 'unsubscribe')),
  topic TEXT NOT NULL,
  given_topic TEXT,
  callback TEXT NOT NULL,
  given_callback TEXT,
  callback_host TEXT NOT NULL,
  secret TEXT,
  lease_seconds INTEGER,
  requested_at INTEGER NOT NULL,
  UNIQUE (topic, callback)
);
`;

const SUB_KEYS = Object.keys(SubscriptionSchema.shape) as (keyof Subscription)[];
const VER_KEYS = Object.keys(VerificationSchema.shape) as (keyof Verification)[];
/** `callbackHost` → `callback_host`: the tables name the schemas' keys in snake case. */
const columns = (keys: readonly string[]) =>
  keys.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join(", ");
const SUB_COLUMNS = columns(SUB_KEYS);
const VER_COLUMNS = columns(VER_KEYS);
/** Columns later versions added, each (table, column): a file made before lacks them. */
const ADDED = { subscriptions: ["given_callback"], verifications: ["given_topic", "given_callback"] } as const;

/** A plain object from a row read as an array of `keys`' columns. */
function record<T>(keys: readonly string[], values: unknown[]): T {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) out[keys[i] as string] = values[i];
  return out as T;
}

export const STORE_FILE = "hub.sqlite";

export class SqliteHubDb {
  readonly #db: DatabaseSync;
  /**
   * Prepared once per connection: preparing cost as much as running a one-row query. Keyed by SQL
   * text, which is built from this file's constants only (values are always bound), so it holds
   * at most one statement per query below.
   */
  readonly #statements = new Map<string, StatementSync>();
  readonly #subColumns: string;
  readonly #verColumns: string;
  /** The last verification id given: never given again while this process runs (see addVerification). */
  #lastVerification = 0;

  constructor(file: string, opts: { readOnly?: boolean } = {}) {
    if (!opts.readOnly && file !== ":memory:") ownerOnly(file);
    this.#db = new DatabaseSync(file, { readOnly: opts.readOnly ?? false });
    this.#db.exec("PRAGMA busy_timeout = 5000");
    if (!opts.readOnly) {
      this.#db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
      this.#db.exec(SCHEMA);
    }
    // A file made before a column was added lacks it (CREATE IF NOT EXISTS leaves the table as it
    // was): it is added, or, opened read-only (`npm run hub:list`), read as null.
    const missing = (table: string, column: string) =>
      this.#db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column) === undefined;
    const columnsOf = (table: keyof typeof ADDED, all: string) =>
      ADDED[table].reduce((list: string, column) => {
        if (!opts.readOnly && missing(table, column)) this.#db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
        return missing(table, column) ? list.replace(column, `NULL AS ${column}`) : list;
      }, all);
    this.#subColumns = columnsOf("subscriptions", SUB_COLUMNS);
    this.#verColumns = columnsOf("verifications", VER_COLUMNS);
  }

  /** Opens (creating if needed) `dataDir/hub.sqlite`. */
  static open(dataDir: string): SqliteHubDb {
    return new SqliteHubDb(path.join(dataDir, STORE_FILE));
  }

  begin(): void {
    this.#db.exec("BEGIN IMMEDIATE");
  }
  commit(): void {
    this.#db.exec("COMMIT");
  }
  rollback(): void {
    this.#db.exec("ROLLBACK");
  }

  /** Runs `fn` in one write transaction (or inside the one already open): check-then-write stays atomic. */
  transaction<T>(fn: () => T): T {
    if (this.#db.isTransaction) return fn();
    this.begin();
    try {
      const out = fn();
      this.commit();
      return out;
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  /** `arrays`: rows come as arrays of values, which `record` turns into plain objects. */
  #prepare(sql: string, arrays = false): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      statement.setReturnArrays(arrays);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #subs(sql: string, ...params: (string | number | null)[]): Subscription[] {
    const rows = this.#prepare(`SELECT ${this.#subColumns} FROM subscriptions ${sql}`, true).all(...params);
    return rows.map((row) => record<Subscription>(SUB_KEYS, row as unknown as unknown[]));
  }

  #sub(sql: string, ...params: (string | number | null)[]): Subscription | undefined {
    const row = this.#prepare(`SELECT ${this.#subColumns} FROM subscriptions ${sql}`, true).get(...params);
    return row && record<Subscription>(SUB_KEYS, row as unknown as unknown[]);
  }

  #vers(sql: string, ...params: (string | number | null)[]): Verification[] {
    const rows = this.#prepare(`SELECT ${this.#verColumns} FROM verifications ${sql}`, true).all(...params);
    return rows.map((row) => record<Verification>(VER_KEYS, row as unknown as unknown[]));
  }

  #count(sql: string, ...params: (string | number)[]): number {
    const row = this.#prepare(`SELECT count(*) AS n FROM ${sql}`).get(...params) as { n: number };
    return row.n;
  }

  subscriptions(): Subscription[] {
    return this.#subs("ORDER BY topic, callback");
  }

  subscription(topic: string, callback: string): Subscription | undefined {
    return this.#sub("WHERE topic = ? AND callback = ?", topic, callback);
  }

  subscriptionById(id: number): Subscription | undefined {
    return this.#sub("WHERE id = ?", id);
  }

  /** Subscriptions of `topic` that have not received content hashing to `hash`. */
  owed(topic: string, hash: string): Subscription[] {
    return this.#subs("WHERE topic = ? AND delivered_hash IS NOT ? ORDER BY id", topic, hash);
  }

  countSubscriptions(): number {
    return this.#count("subscriptions");
  }

  countForHost(host: string): number {
    return this.#count("subscriptions WHERE callback_host = ?", host);
  }

  /** Creates the subscription, or renews it: new lease and secret, delivery state untouched. */
  upsert(s: SubscriptionInput, now: number): void {
    this.#prepare(
      `INSERT INTO subscriptions (topic, callback, given_callback, callback_host, secret, lease_seconds, expires_at,
           state, failures, next_attempt_at, delivered_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 0, NULL, ?, ?, ?)
         ON CONFLICT (topic, callback) DO UPDATE SET given_callback = excluded.given_callback, secret = excluded.secret,
           lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
    ).run(
      ...[s.topic, s.callback, s.givenCallback ?? null, s.callbackHost, s.secret, s.leaseSeconds, s.expiresAt],
      ...[s.deliveredHash, now, now],
    );
  }

  remove(id: number): void {
    this.#prepare("DELETE FROM subscriptions WHERE id = ?").run(id);
  }

  /** Deletes every subscription whose lease ended at or before `now` and returns them. */
  removeExpired(now: number): Subscription[] {
    return this.transaction(() => {
      const expired = this.#subs("WHERE expires_at <= ?", now);
      this.#prepare("DELETE FROM subscriptions WHERE expires_at <= ?").run(now);
      return expired;
    });
  }

  nextExpiry(): number | undefined {
    const row = this.#prepare("SELECT min(expires_at) AS t FROM subscriptions").get() as { t: number | null };
    return row.t ?? undefined;
  }

  recordSuccess(id: number, hash: string, now: number): void {
    this.#prepare(
      `UPDATE subscriptions SET state = 'active', failures = 0, next_attempt_at = NULL, delivered_hash = ?,
           updated_at = ? WHERE id = ?`,
    ).run(hash, now, id);
  }

  recordFailure(id: number, failures: number, nextAttemptAt: number, now: number): void {
    this.#prepare(
      "UPDATE subscriptions SET state = 'retrying', failures = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?",
    ).run(failures, nextAttemptAt, now, id);
  }

  /**
   * Records an accepted request; a newer request for the same (topic, callback) replaces an older one.
   * Its id is new: SQLite would give it the id of a row just removed, which a verification still in
   * flight goes by (it would take the new request for its own, or skip it as already queued).
   */
  addVerification(input: VerificationInput): Verification {
    const v = { ...input, givenCallback: input.givenCallback ?? null };
    return this.transaction(() => {
      this.#prepare("DELETE FROM verifications WHERE topic = ? AND callback = ?").run(v.topic, v.callback);
      const top = this.#prepare("SELECT coalesce(max(id), 0) AS n FROM verifications").get() as { n: number };
      const id = Math.max(top.n, this.#lastVerification) + 1;
      this.#prepare(
        `INSERT INTO verifications (id, mode, topic, given_topic, callback, given_callback, callback_host, secret,
             lease_seconds, requested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        ...[id, v.mode, v.topic, v.givenTopic, v.callback, v.givenCallback, v.callbackHost, v.secret, v.leaseSeconds],
        v.requestedAt,
      );
      this.#lastVerification = id;
      return { ...v, id };
    });
  }

  verification(id: number): Verification | undefined {
    return this.#vers("WHERE id = ?", id)[0];
  }

  verifications(): Verification[] {
    return this.#vers("ORDER BY id");
  }

  countVerifications(host?: string, besides?: RequestKey): number {
    const { where, params } = pendingFilter(host, besides);
    return this.#count(`verifications ${where}`, ...params);
  }

  removeVerification(id: number): void {
    this.#prepare("DELETE FROM verifications WHERE id = ?").run(id);
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}
