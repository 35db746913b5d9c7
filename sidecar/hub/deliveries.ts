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
