import type { Logger } from "pino";
import type { DeliveryOutcome } from "./deliver.ts";
import type { HubStore } from "./store.ts";
import type { TopicContent } from "./topic-source.ts";

/** What both ways of delivering (in process with retry timers, or pg-boss jobs) share. */

/** After this many failed deliveries in a row the subscription is removed (W3C would keep it). */
export const MAX_CONSECUTIVE_FAILURES = 3;

export type CurrentTopic = TopicContent & { hash: string };

/**
 * How owed content reaches subscribers: `Distributor` (in this process, timers on the hub's clock;
 * the SQLite default) or `QueueDeliveries` (pg-boss jobs any instance may run; `DATABASE_URL`).
 */
export interface Deliveries {
  /** This instance read `content` for `topic`: queue it for every subscriber still owed it; returns how many. */
  offer(topic: string, content: CurrentTopic): Promise<number>;
  /** Hash of the topic's current content: a new subscriber is owed only what comes after it. */
  currentHash(topic: string): Promise<string | undefined>;
  /** Forgets a subscription's pending work (it was removed or unsubscribed). */
  cancel(id: number): void;
  /** Resolves once nothing is queued or running (retries waiting out a backoff excepted, in process). */
  idle(): Promise<void>;
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
