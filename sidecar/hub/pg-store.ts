import type pg from "pg";
import {
  type HubStore,
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
 * `HubStore` in PostgreSQL, shared by every instance (`DATABASE_URL`). Same tables and meaning as
 * the SQLite store (see migrations.ts). A transaction also takes a transaction-scoped advisory
 * lock, so two instances finishing verifications at once cannot both pass a limit check that only
 * one of them may pass; it is short (a few indexed statements), so the serialisation costs little.
 *
 * Rows are parsed with the schemas here, unlike in SQLite: their JavaScript types come from the
 * pool's type parsers (int8 as number, see postgres.ts), which the caller owns. The queries every
 * delivery runs are named, so each connection parses and plans them once.
 */

const SUB_COLUMNS = `id, topic, callback, given_callback AS "givenCallback", callback_host AS "callbackHost", secret, lease_seconds AS "leaseSeconds",
  expires_at AS "expiresAt", state, failures, next_attempt_at AS "nextAttemptAt", delivered_hash AS "deliveredHash",
  created_at AS "createdAt", updated_at AS "updatedAt"`;
const VER_COLUMNS = `id, mode, topic, given_topic AS "givenTopic", callback, given_callback AS "givenCallback",
  callback_host AS "callbackHost", secret, lease_seconds AS "leaseSeconds", requested_at AS "requestedAt"`;

const HUB_LOCK = "public-reviews:hub-subscriptions";

// A named statement's text must never change under its name: pg prepares it once per connection.
const BY_ID = `SELECT ${SUB_COLUMNS} FROM hub_subscriptions WHERE id = $1`;
const RECORD_SUCCESS = `UPDATE hub_subscriptions SET state = 'active', failures = 0, next_attempt_at = NULL,
  delivered_hash = $1, updated_at = $2 WHERE id = $3`;

type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

export class PgHubStore implements HubStore {
  readonly #pool: pg.Pool;
  readonly #db: Queryable;

  /** `db` is the pool itself, or the client of an open transaction. */
  constructor(pool: pg.Pool, db: Queryable = pool) {
    this.#pool = pool;
    this.#db = db;
  }

  async #query(sql: string, params: unknown[] = [], name?: string): Promise<Record<string, unknown>[]> {
    return (await this.#db.query({ text: sql, values: params, name })).rows;
  }

  async #subs(sql: string, ...params: unknown[]): Promise<Subscription[]> {
    const rows = await this.#query(`SELECT ${SUB_COLUMNS} FROM hub_subscriptions ${sql}`, params);
    return rows.map((r) => SubscriptionSchema.parse(r));
  }

  async #vers(sql: string, ...params: unknown[]): Promise<Verification[]> {
    const rows = await this.#query(`SELECT ${VER_COLUMNS} FROM hub_verifications ${sql}`, params);
    return rows.map((r) => VerificationSchema.parse(r));
  }

  async #count(sql: string, ...params: unknown[]): Promise<number> {
    const [row] = await this.#query(`SELECT count(*)::int AS n FROM ${sql}`, params);
    return Number(row?.n ?? 0);
  }

  async transaction<T>(fn: (tx: HubStore) => Promise<T>): Promise<T> {
    if (this.#db !== this.#pool) return fn(this);
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [HUB_LOCK]);
      const out = await fn(new PgHubStore(this.#pool, client));
      await client.query("COMMIT");
      return out;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  subscriptions(): Promise<Subscription[]> {
    return this.#subs("ORDER BY topic, callback");
  }

  async subscription(topic: string, callback: string): Promise<Subscription | undefined> {
    return (await this.#subs("WHERE topic = $1 AND callback = $2", topic, callback))[0];
  }

  async subscriptionById(id: number): Promise<Subscription | undefined> {
    const [row] = await this.#query(BY_ID, [id], "hub-subscription-by-id");
    return row && SubscriptionSchema.parse(row);
  }

  owed(topic: string, hash: string): Promise<Subscription[]> {
    return this.#subs("WHERE topic = $1 AND delivered_hash IS DISTINCT FROM $2 ORDER BY id", topic, hash);
  }

  countSubscriptions(): Promise<number> {
    return this.#count("hub_subscriptions");
  }

  countForHost(host: string): Promise<number> {
    return this.#count("hub_subscriptions WHERE callback_host = $1", host);
  }

  async upsert(s: SubscriptionInput, now: number): Promise<void> {
    await this.#query(
      `INSERT INTO hub_subscriptions (topic, callback, callback_host, secret, lease_seconds, expires_at, state,
         failures, next_attempt_at, delivered_hash, created_at, updated_at, given_callback)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', 0, NULL, $7, $8, $8, $9)
       ON CONFLICT (topic, callback) DO UPDATE SET given_callback = excluded.given_callback, secret = excluded.secret,
         lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
      [
        s.topic,
        s.callback,
        s.callbackHost,
        s.secret,
        s.leaseSeconds,
        s.expiresAt,
        s.deliveredHash,
        now,
        s.givenCallback ?? null,
      ],
    );
  }

  async remove(id: number): Promise<void> {
    await this.#query("DELETE FROM hub_subscriptions WHERE id = $1", [id]);
  }

  async removeExpired(now: number): Promise<Subscription[]> {
    const rows = await this.#query(`DELETE FROM hub_subscriptions WHERE expires_at <= $1 RETURNING ${SUB_COLUMNS}`, [
      now,
    ]);
    return rows.map((r) => SubscriptionSchema.parse(r));
  }

  async nextExpiry(): Promise<number | undefined> {
    const [row] = await this.#query("SELECT min(expires_at) AS t FROM hub_subscriptions");
    return row?.t === null || row?.t === undefined ? undefined : Number(row.t);
  }

  async recordSuccess(id: number, hash: string, now: number): Promise<void> {
    await this.#query(RECORD_SUCCESS, [hash, now, id], "hub-record-success");
  }

  async recordFailure(id: number, failures: number, nextAttemptAt: number, now: number): Promise<void> {
    await this.#query(
      "UPDATE hub_subscriptions SET state = 'retrying', failures = $1, next_attempt_at = $2, updated_at = $3 WHERE id = $4",
      [failures, nextAttemptAt, now, id],
    );
  }

  async addVerification(input: VerificationInput): Promise<Verification> {
    const v = { ...input, givenCallback: input.givenCallback ?? null };
    // One statement: a newer request for the same (topic, callback) replaces the older one, new id included.
    const [row] = await this.#query(
      `INSERT INTO hub_verifications (mode, topic, given_topic, callback, callback_host, secret, lease_seconds,
         requested_at, given_callback) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (topic, callback) DO UPDATE SET id = nextval(pg_get_serial_sequence('hub_verifications', 'id')),
         mode = excluded.mode, given_topic = excluded.given_topic, given_callback = excluded.given_callback,
         callback_host = excluded.callback_host,
         secret = excluded.secret, lease_seconds = excluded.lease_seconds, requested_at = excluded.requested_at,
         claimed_until = NULL
       RETURNING id`,
      [
        v.mode,
        v.topic,
        v.givenTopic,
        v.callback,
        v.callbackHost,
        v.secret,
        v.leaseSeconds,
        v.requestedAt,
        v.givenCallback,
      ],
    );
    return { ...v, id: Number(row?.id) };
  }

  async verification(id: number): Promise<Verification | undefined> {
    return (await this.#vers("WHERE id = $1", id))[0];
  }

  verifications(): Promise<Verification[]> {
    return this.#vers("ORDER BY id");
  }

  async claimVerification(id: number, now: number, until: number): Promise<Verification | undefined> {
    const [row] = await this.#query(
      `UPDATE hub_verifications SET claimed_until = $3 WHERE id = $1 AND (claimed_until IS NULL OR claimed_until <= $2)
       RETURNING ${VER_COLUMNS}`,
      [id, now, until],
    );
    return row && VerificationSchema.parse(row);
  }

  async releaseVerification(id: number): Promise<void> {
    await this.#query("UPDATE hub_verifications SET claimed_until = NULL WHERE id = $1", [id]);
  }

  async unclaimedVerifications(now: number): Promise<number[]> {
    const rows = await this.#query(
      "SELECT id FROM hub_verifications WHERE claimed_until IS NULL OR claimed_until <= $1 ORDER BY id",
      [now],
    );
    return rows.map((r) => Number(r.id));
  }

  countVerifications(host?: string, besides?: RequestKey): Promise<number> {
    const { where, params } = pendingFilter(host, besides);
    let n = 0;
    return this.#count(`hub_verifications ${where.replace(/\?/g, () => `$${++n}`)}`, ...params);
  }

  async removeVerification(id: number): Promise<void> {
    await this.#query("DELETE FROM hub_verifications WHERE id = $1", [id]);
  }

  /** The pool belongs to whoever created it (it is shared with the queue and readiness). */
  async close(): Promise<void> {}
}
