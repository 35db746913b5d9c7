import { SqliteHubDb } from "./sqlite-db.ts";
import type {
  HubStore,
  RequestKey,
  Subscription,
  SubscriptionInput,
  Verification,
  VerificationInput,
} from "./store.ts";

interface PendingSuccess {
  id: number;
  hash: string;
  now: number;
  committed: () => void;
  failed: (err: unknown) => void;
}

/**
 * `HubStore` over one synchronous `node:sqlite` connection. A transaction's callback is async, so
 * while it awaits, another caller's statement could run on the same connection and land inside the
 * open transaction; every call therefore waits for the open transaction to finish first, and
 * transactions queue behind each other. The transaction's own `tx` view skips that wait.
 *
 * Successful deliveries are committed in batches: `recordSuccess` queues its update, and the
 * queue is written in one transaction on the next turn of the event loop (`setImmediate`), or
 * before any other call runs, so every read sees them. Its promise resolves once the batch has
 * committed, so a caller knows the success is durable exactly as before; a fan-out's completions
 * then cost one WAL commit per batch instead of one each.
 */
export class SqliteHubStore implements HubStore {
  readonly #db: SqliteHubDb;
  #open: Promise<unknown> = Promise.resolve();
  readonly #inside: boolean;
  #successes: PendingSuccess[] = [];

  constructor(db: SqliteHubDb, inside = false) {
    this.#db = db;
    this.#inside = inside;
  }

  static open(dataDir: string): SqliteHubStore {
    return new SqliteHubStore(SqliteHubDb.open(dataDir));
  }

  async #run<T>(fn: (db: SqliteHubDb) => T): Promise<T> {
    if (!this.#inside) {
      await this.#open;
      this.#commitSuccesses();
    }
    return fn(this.#db);
  }

  /** Writes the queued successes in one transaction; never while another transaction is open. */
  #commitSuccesses(): void {
    if (this.#successes.length === 0) return;
    const batch = this.#successes;
    this.#successes = [];
    try {
      this.#db.transaction(() => {
        for (const s of batch) this.#db.recordSuccess(s.id, s.hash, s.now);
      });
    } catch (err) {
      for (const s of batch) s.failed(err);
      return;
    }
    for (const s of batch) s.committed();
  }

  transaction<T>(fn: (tx: HubStore) => Promise<T>): Promise<T> {
    if (this.#inside) return fn(this);
    const tx = new SqliteHubStore(this.#db, true);
    const run = this.#open.then(async () => {
      this.#commitSuccesses();
      this.#db.begin();
      try {
        const out = await fn(tx);
        this.#db.commit();
        return out;
      } catch (err) {
        this.#db.rollback();
        throw err;
      }
    });
    this.#open = run.catch(() => undefined);
    return run;
  }

  subscriptions(): Promise<Subscription[]> {
    return this.#run((db) => db.subscriptions());
  }
  subscription(topic: string, callback: string): Promise<Subscription | undefined> {
    return this.#run((db) => db.subscription(topic, callback));
  }
  subscriptionById(id: number): Promise<Subscription | undefined> {
    return this.#run((db) => db.subscriptionById(id));
  }
  owed(topic: string, hash: string): Promise<Subscription[]> {
    return this.#run((db) => db.owed(topic, hash));
  }
  countSubscriptions(): Promise<number> {
    return this.#run((db) => db.countSubscriptions());
  }
  countForHost(host: string): Promise<number> {
    return this.#run((db) => db.countForHost(host));
  }
  upsert(s: SubscriptionInput, now: number): Promise<void> {
    return this.#run((db) => db.upsert(s, now));
  }
  remove(id: number): Promise<void> {
    return this.#run((db) => db.remove(id));
  }
  removeExpired(now: number): Promise<Subscription[]> {
    return this.#run((db) => db.removeExpired(now));
  }
  nextExpiry(): Promise<number | undefined> {
    return this.#run((db) => db.nextExpiry());
  }
  recordSuccess(id: number, hash: string, now: number): Promise<void> {
    if (this.#inside) return this.#run((db) => db.recordSuccess(id, hash, now));
    return new Promise((committed, failed) => {
      this.#successes.push({ id, hash, now, committed, failed });
      if (this.#successes.length > 1) return;
      // After the transaction open now, if any; the callbacks queued on `#open` run in order.
      setImmediate(() => void this.#open.then(() => this.#commitSuccesses()));
    });
  }
  recordFailure(id: number, failures: number, nextAttemptAt: number, now: number): Promise<void> {
    return this.#run((db) => db.recordFailure(id, failures, nextAttemptAt, now));
  }
  addVerification(v: VerificationInput): Promise<Verification> {
    return this.#run((db) => db.addVerification(v));
  }
  verification(id: number): Promise<Verification | undefined> {
    return this.#run((db) => db.verification(id));
  }
  verifications(): Promise<Verification[]> {
    return this.#run((db) => db.verifications());
  }
  // One process owns the file: no other instance can hold a request, so taking one is reading it.
  claimVerification(id: number): Promise<Verification | undefined> {
    return this.verification(id);
  }
  async releaseVerification(): Promise<void> {}
  async unclaimedVerifications(): Promise<number[]> {
    return (await this.verifications()).map((v) => v.id);
  }
  countVerifications(host?: string, besides?: RequestKey): Promise<number> {
    return this.#run((db) => db.countVerifications(host, besides));
  }
  removeVerification(id: number): Promise<void> {
    return this.#run((db) => db.removeVerification(id));
  }
  async close(): Promise<void> {
    await this.#open;
    this.#commitSuccesses();
    this.#db.close();
  }
}
