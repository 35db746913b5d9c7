import type { Logger } from "pino";
import type { Dispatcher } from "undici";
import type { Clock } from "../clock.ts";
import { type DeliveryOutcome, deliver } from "./deliver.ts";
import { type HubStore, sentTo } from "./store.ts";
import type { TopicContent } from "./topic-source.ts";

/** What both ways of delivering (in process with retry timers, or pg-boss jobs) share. */

/** After this many failed deliveries in a row the subscription is removed (W3C would keep it). */
export const MAX_CONSECUTIVE_FAILURES = 3;

export type CurrentTopic = TopicContent & { hash: string };

/**
 * How owed content reaches subscribers: `Distributor` (in this process, timers on the hub's clock;
 * the SQLite default) or `QueueDeliveries` (pg-boss jobs any instance may run; `DATABASE_URL`).
 * What only one of them has work for is optional, rather than a no-op in the other.
 */
/**
 * How a topic is offered. A revert (content equal to a version published before) is made current
 * again by default: an operator who deploys an older build means it. An instance offering what it
 * serves after a database outage passes `revert: false`: its build may be older than one another
 * instance published meanwhile, which must not be taken back (sidecar/build/build-sync.ts).
 */
export interface Offer {
  revert?: boolean;
}

export interface Deliveries {
  /**
   * This instance read `content` for `topic`: queue it for every subscriber still owed it; returns
   * how many. `revert: false`: content equal to a version published before is no news (see `Offer`).
   */
  offer(topic: string, content: CurrentTopic, opts?: Offer): Promise<number>;
  /** Hash of the topic's current content: a new subscriber is owed only what comes after it. */
  currentHash(topic: string): Promise<string | undefined>;
  /**
   * In process: cancels a removed or unsubscribed subscription's retry timer. (Queued jobs carry
   * their own state, and a job whose subscription is gone does nothing.)
   */
  cancel?(id: number): void;
  /**
   * Shared queue: resolves once no job is queued or running on any instance. (In process, the
   * hub waits for the jobs it tracks itself.)
   */
  idle?(): Promise<void>;
  /** Stops starting new attempts; the caller aborts the in-flight ones through its signal. */
  close(): Promise<void>;
}

/** Callback URLs can carry tokens in their query; logs keep the origin and path only. */
export function logUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}${u.search ? "?…" : ""}`;
}

/**
 * What one attempt's bookkeeping needs. `fields` go on every log line; a function, because a
 * delivered notification logs at debug only and the callback's log form need not be built for it.
 */
export interface AttemptRecord {
  store: HubStore;
  log: Logger;
  id: number;
  hash: string;
  now: number;
  retryBaseMs: number;
  fields: () => Record<string, unknown>;
}

/**
 * Records one attempt's outcome the same way for both ways of delivering: success, removal on 410
 * or after `MAX_CONSECUTIVE_FAILURES` failures in a row, else the failure with its retry time.
 * Returns the backoff in ms when the caller should retry, undefined when it is done.
 *
 * A failure counts against the row as it is now: it may have been unsubscribed or renewed during
 * the request, so it is read again (and a row gone meanwhile is left alone). A success needs no
 * re-read: its update is the same either way, and a removed row has nothing to update.
 */
export async function recordAttempt(r: AttemptRecord, outcome: DeliveryOutcome): Promise<number | undefined> {
  const { store, log, id, now } = r;
  if (outcome.kind === "delivered") {
    await store.recordSuccess(id, r.hash, now);
    if (log.isLevelEnabled("debug")) log.debug({ ...r.fields(), status: outcome.status }, "content delivered");
    return undefined;
  }
  const fresh = await store.subscriptionById(id);
  if (!fresh) return undefined;
  const fields = r.fields();
  if (outcome.kind === "gone") {
    await store.remove(id);
    log.info(fields, "callback answered 410 Gone; subscription removed");
    return undefined;
  }
  const failures = fresh.failures + 1;
  if (failures >= MAX_CONSECUTIVE_FAILURES) {
    await store.remove(id);
    log.warn(
      { ...fields, failures, reason: outcome.reason },
      `subscription removed after ${failures} consecutive failed deliveries`,
    );
    return undefined;
  }
  const delay = r.retryBaseMs * 2 ** (failures - 1);
  await store.recordFailure(id, failures, now + delay, now);
  log.info({ ...fields, failures, reason: outcome.reason, retryInMs: delay }, "delivery failed; will retry");
  return delay;
}

/** What one attempt needs, in both ways of delivering. */
export interface AttemptDeps {
  store: HubStore;
  dispatcher: Dispatcher;
  clock: Clock;
  log: Logger;
  hubUrl: string;
  timeoutMs: number;
  retryBaseMs: number;
}

/**
 * One attempt's end: the subscription is `gone` (removed, or its lease expired and it was removed
 * now); it already `holds` the current content (or there is none); the attempt was `aborted` by
 * shutdown (not counted against the subscriber); or it was `recorded` (`recordAttempt`), with the
 * backoff when it should be retried.
 */
export type AttemptEnd =
  | { kind: "gone" }
  | { kind: "holds"; topic: string; hash: string | null }
  | { kind: "aborted" }
  | { kind: "recorded"; topic: string; hash: string; outcome: DeliveryOutcome; retryInMs?: number };

/**
 * One delivery attempt for subscription `id`, the same for both ways of delivering: reads its row
 * (a renewal may have changed the secret, an unsubscription removed it), removes it if its lease
 * has expired, sends `content(topic)` unless the subscriber already holds it, and records the
 * outcome. `fields` are added to its log lines (a job id, say).
 */
export async function attemptDelivery(
  d: AttemptDeps,
  id: number,
  content: (topic: string) => CurrentTopic | undefined | Promise<CurrentTopic | undefined>,
  signal: AbortSignal,
  fields: Record<string, unknown> = {},
): Promise<AttemptEnd> {
  const { store, clock, log } = d;
  const sub = await store.subscriptionById(id);
  if (!sub) return { kind: "gone" };
  const logFields = () => ({ topic: sub.topic, callback: logUrl(sub.callback), ...fields });
  if (sub.expiresAt <= clock.now()) {
    await store.remove(id);
    log.info(logFields(), "lease expired; subscription removed");
    return { kind: "gone" };
  }
  const current = await content(sub.topic);
  if (!current || current.hash === sub.deliveredHash)
    return { kind: "holds", topic: sub.topic, hash: sub.deliveredHash };
  const outcome = await deliver(
    d.dispatcher,
    { ...current, callback: sentTo(sub), topic: sub.topic, hubUrl: d.hubUrl, secret: sub.secret },
    { timeoutMs: d.timeoutMs, signal },
  );
  if (signal.aborted) return { kind: "aborted" };
  const record = {
    store,
    log,
    id,
    hash: current.hash,
    now: clock.now(),
    retryBaseMs: d.retryBaseMs,
    fields: logFields,
  };
  const retryInMs = await recordAttempt(record, outcome);
  return { kind: "recorded", topic: sub.topic, hash: current.hash, outcome, retryInMs };
}
