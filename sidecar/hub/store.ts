import { z } from "zod";

/**
 * The hub's durable state, whichever engine keeps it: `SqliteHubStore` (one process, the default)
 * or `PgHubStore` (`DATABASE_URL`, shared by every instance). The interface is async because
 * PostgreSQL is; the SQLite store answers from a synchronous connection. All times are
 * milliseconds since the epoch from the hub's clock.
 */

export const SubscriptionSchema = z.object({
  id: z.number().int(),
  topic: z.string(),
  /** The key: percent-encoded unreserved characters decoded (callback-url.ts). */
  callback: z.string(),
  /** Where deliveries go: the callback as the last verified request sent it; null: `callback` (older rows). */
  givenCallback: z.string().nullable(),
  callbackHost: z.string(),
  secret: z.string().nullable(),
  leaseSeconds: z.number().int(),
  expiresAt: z.number().int(),
  /** `active`: up to date or idle; `retrying`: the last delivery failed and a retry is due at `nextAttemptAt`. */
  state: z.enum(["active", "retrying"]),
  failures: z.number().int(),
  nextAttemptAt: z.number().int().nullable(),
  /** SHA-256 (hex) of the content last delivered, or of the content current when it subscribed. */
  deliveredHash: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const VerificationSchema = z.object({
  id: z.number().int(),
  mode: z.enum(["subscribe", "unsubscribe"]),
  topic: z.string(),
  /**
   * `hub.topic` as the subscriber wrote it, which the verification and denial GETs echo (W3C
   * §5.3); `topic` is the canonical URL it names. Null in a request recorded before it was kept.
   */
  givenTopic: z.string().nullable(),
  callback: z.string(),
  /** The callback as sent, where the verification and denial GETs go; null: `callback` (older rows). */
  givenCallback: z.string().nullable(),
  callbackHost: z.string(),
  secret: z.string().nullable(),
  leaseSeconds: z.number().int().nullable(),
  requestedAt: z.number().int(),
});
export type Verification = z.infer<typeof VerificationSchema>;

/** Where the hub sends requests for a subscription or request: the callback as sent, else its key. */
export function sentTo(row: { callback: string; givenCallback: string | null }): string {
  return row.givenCallback ?? row.callback;
}

/** The columns a new or renewed subscription is written with; delivery state is the store's. */
export type SubscriptionInput = Omit<
  Subscription,
  "id" | "state" | "failures" | "nextAttemptAt" | "createdAt" | "updatedAt" | "givenCallback"
> & { givenCallback?: string | null };
/** An accepted request as recorded; without `givenCallback`, requests go to `callback`. */
export type VerificationInput = Omit<Verification, "id" | "givenCallback"> & { givenCallback?: string | null };

/** What names a request (and a subscription): the canonical topic and the callback's key. */
export interface RequestKey {
  topic: string;
  callback: string;
}

/** `countVerifications`'s filter: SQL with `?` placeholders (empty when it counts all) and their values. */
export function pendingFilter(host?: string, besides?: RequestKey): { where: string; params: string[] } {
  const clauses: string[] = [];
  const params: string[] = [];
  if (host !== undefined) {
    clauses.push("callback_host = ?");
    params.push(host);
  }
  if (besides) {
    clauses.push("NOT (topic = ? AND callback = ?)");
    params.push(besides.topic, besides.callback);
  }
  return { where: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, params };
}

export interface HubStore {
  /**
   * Runs `fn` in one write transaction on `tx` (the same interface), so check-then-write sequences
   * (limits, then insert) stay atomic, also between instances sharing a database.
   */
  transaction<T>(fn: (tx: HubStore) => Promise<T>): Promise<T>;
  subscriptions(): Promise<Subscription[]>;
  subscription(topic: string, callback: string): Promise<Subscription | undefined>;
  subscriptionById(id: number): Promise<Subscription | undefined>;
  /** Subscriptions of `topic` that have not received content hashing to `hash`. */
  owed(topic: string, hash: string): Promise<Subscription[]>;
  countSubscriptions(): Promise<number>;
  countForHost(host: string): Promise<number>;
  /** Creates the subscription, or renews it: new lease and secret, delivery state untouched. */
  upsert(s: SubscriptionInput, now: number): Promise<void>;
  remove(id: number): Promise<void>;
  /** Deletes every subscription whose lease ended at or before `now` and returns them. */
  removeExpired(now: number): Promise<Subscription[]>;
  nextExpiry(): Promise<number | undefined>;
  recordSuccess(id: number, hash: string, now: number): Promise<void>;
  recordFailure(id: number, failures: number, nextAttemptAt: number, now: number): Promise<void>;
  /** Records an accepted request; a newer request for the same (topic, callback) replaces an older one. */
  addVerification(v: VerificationInput): Promise<Verification>;
  verification(id: number): Promise<Verification | undefined>;
  verifications(): Promise<Verification[]>;
  /**
   * Takes request `id` for verification until `until`: the request, or undefined when it is gone
   * or another instance sharing the store holds it at `now`.
   */
  claimVerification(id: number, now: number, until: number): Promise<Verification | undefined>;
  /** Gives a taken request back (its verification was interrupted), so any instance may take it. */
  releaseVerification(id: number): Promise<void>;
  /** Ids of the requests no instance holds at `now`. */
  unclaimedVerifications(now: number): Promise<number[]>;
  /**
   * Requests awaiting verification, all or those whose callback is on `host`, leaving out the one
   * for `besides` (a topic and callback key), which a new request for the pair would replace.
   */
  countVerifications(host?: string, besides?: RequestKey): Promise<number>;
  removeVerification(id: number): Promise<void>;
  close(): Promise<void>;
}
