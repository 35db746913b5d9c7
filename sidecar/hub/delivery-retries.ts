import type PQueue from "p-queue";
import { type AttemptDeps, attemptDelivery, type CurrentTopic, type Deliveries } from "./deliveries.ts";

export interface DistributorDeps extends AttemptDeps {
  queue: PQueue;
  /** Aborted on shutdown; an aborted attempt is not counted against the subscriber. */
  signal: AbortSignal;
  /** Registers a job so `Hub.idle()` can wait for it. */
  track(job: Promise<unknown>): void;
}

/**
 * Delivery scheduling: at most one attempt per subscription queued or running at a time, a retry
 * timer per failing subscription, exponential backoff (base, 2×base, …), removal after
 * MAX_CONSECUTIVE_FAILURES or a 410. Failure counts and the next attempt time are written to the
 * store before the timer is armed, so a restart resumes the same schedule.
 */
export class Distributor implements Deliveries {
  readonly #d: DistributorDeps;
  readonly #content = new Map<string, CurrentTopic>();
  readonly #busy = new Set<number>();
  readonly #retries = new Map<number, () => void>();

  constructor(deps: DistributorDeps) {
    this.#d = deps;
  }

  /**
   * Each owed subscription gets an attempt now, or its retry timer if it is waiting out a backoff.
   * An attempt sends whatever content is current when it starts.
   */
  async offer(topic: string, content: CurrentTopic): Promise<number> {
    this.#content.set(topic, content);
    const owed = await this.#d.store.owed(topic, content.hash);
    for (const sub of owed) {
      if (this.#busy.has(sub.id) || this.#retries.has(sub.id)) continue;
      const wait = sub.state === "retrying" && sub.nextAttemptAt !== null ? sub.nextAttemptAt - this.#d.clock.now() : 0;
      if (wait > 0) this.#retryIn(sub.id, wait);
      else this.#enqueue(sub.id);
    }
    return owed.length;
  }

  async currentHash(topic: string): Promise<string | undefined> {
    return this.#content.get(topic)?.hash;
  }

  cancel(id: number): void {
    this.#retries.get(id)?.();
    this.#retries.delete(id);
  }

  async close(): Promise<void> {
    for (const cancel of this.#retries.values()) cancel();
    this.#retries.clear();
  }

  #retryIn(id: number, ms: number): void {
    const cancel = this.#d.clock.setTimer(() => {
      this.#retries.delete(id);
      this.#enqueue(id);
    }, ms);
    this.#retries.set(id, cancel);
  }

  #enqueue(id: number): void {
    if (this.#d.signal.aborted || this.#busy.has(id)) return;
    this.#busy.add(id);
    const job = this.#d.queue
      .add(() => this.#attempt(id))
      .then((after) => {
        this.#busy.delete(id);
        // Newer content may have been published while this attempt was in flight.
        const hash = after && this.#content.get(after.topic)?.hash;
        if (after && hash && after.holds !== hash && !this.#retries.has(id) && !this.#busy.has(id)) {
          this.#enqueue(id);
        }
      })
      .catch((err: unknown) => {
        this.#busy.delete(id);
        this.#d.log.error({ err, subscription: id }, "delivery job failed");
      });
    this.#d.track(job);
  }

  /**
   * One attempt for subscription `id`, reading its row first (a renewal may have changed the
   * secret, an unsubscription removed it). Returns the topic and the hash the subscriber now holds,
   * or undefined when the subscription is gone or waiting out a backoff. Only this subscription's
   * own attempts write its `delivered_hash`, and they run one at a time, so the caller can tell
   * from that alone whether newer content is owed, without reading the row again.
   */
  async #attempt(id: number): Promise<{ topic: string; holds: string | null } | undefined> {
    if (this.#d.signal.aborted) return undefined;
    const end = await attemptDelivery(this.#d, id, (topic) => this.#content.get(topic), this.#d.signal);
    switch (end.kind) {
      case "holds":
        return { topic: end.topic, holds: end.hash };
      case "recorded":
        if (end.retryInMs !== undefined) this.#retryIn(id, end.retryInMs);
        return end.outcome.kind === "delivered" ? { topic: end.topic, holds: end.hash } : undefined;
      default:
        return undefined;
    }
  }
}
