import type PQueue from "p-queue";
import { type Job, PgBoss } from "pg-boss";
import { QUEUE_POOL_OPTIONS } from "../db/postgres.ts";
import { queueErrorLog } from "../db/queue-errors.ts";
import { type AttemptDeps, attemptDelivery, type CurrentTopic, type Deliveries, type Offer } from "./deliveries.ts";
import { latestVersion, publishVersion, type StoredVersion } from "./topic-versions.ts";
import type { HubDatabase } from "./types.ts";

/**
 * Deliveries as pg-boss jobs in the shared database, so any instance runs them and a crashed
 * instance's work is finished by the others.
 *
 * - A publish stores the topic's new content once (`hub_topic_versions`) and, in the same
 *   transaction, inserts one job per subscription owed it. A second instance publishing the same
 *   content finds the version already current and inserts nothing.
 * - The queue's `key_strict_fifo` policy keyed by subscription runs one job per subscriber at a
 *   time, in order: a newer version waits behind a retry, and the retry sends the newest content,
 *   so the newer job then finds nothing owed.
 * - A job sends the newest stored content unless the subscriber already has it, which is also
 *   what keeps a re-run job from notifying twice. The one window left is a crash after the
 *   subscriber answered 2xx and before `recordSuccess` committed: pg-boss re-runs the job once its
 *   `expireInSeconds` passes, and that subscriber is notified twice (at-least-once).
 * - Failures count in the subscription row as in process: removal after 3 in a row or a 410. A
 *   failed attempt throws, and pg-boss retries it after `retryDelay·2^n` seconds with jitter
 *   (`next_attempt_at` records the earliest time, `HUB_RETRY_BASE_MS·2^(failures-1)`).
 */

export const DELIVERY_QUEUE = "hub-delivery";

interface DeliveryJob {
  subscription: number;
  topic: string;
  hash: string;
}

export interface QueueDeliveriesDeps extends HubDatabase, AttemptDeps {
  /** Aborted on shutdown; an aborted attempt is not counted against the subscriber and runs again. */
  signal: AbortSignal;
  /** Jobs this instance runs at once. */
  concurrency: number;
  /**
   * The hub's queue of outbound requests, which verifications share: each attempt takes one of its
   * slots, ahead of the verifications waiting, so the two together stay within its concurrency.
   */
  queue: PQueue;
}

/** An attempt's place in the hub's queue: before verifications (0), whose wait costs no job expiry. */
const DELIVERY_PRIORITY = 1;

/** Crash-recovery retries (expired jobs) also count here, so it is well above the 3-failure rule. */
const RETRY_LIMIT = 10;

export class QueueDeliveries implements Deliveries {
  readonly #d: QueueDeliveriesDeps;
  readonly #boss: PgBoss;
  #cached = new Map<string, StoredVersion>();

  private constructor(deps: QueueDeliveriesDeps, boss: PgBoss) {
    this.#d = deps;
    this.#boss = boss;
  }

  static async start(deps: QueueDeliveriesDeps): Promise<QueueDeliveries> {
    const boss = new PgBoss({
      connectionString: deps.url,
      max: 4,
      ...QUEUE_POOL_OPTIONS,
      application_name: "public-reviews-queue",
      useListenNotify: true,
      schedule: false,
      superviseIntervalSeconds: deps.superviseSeconds,
    });
    boss.on("error", queueErrorLog(deps.log, "job queue error"));
    await boss.start();
    const options = {
      retryLimit: RETRY_LIMIT,
      retryDelay: Math.max(1, Math.round(deps.retryBaseMs / 1000)),
      retryBackoff: true,
      // A job waits for a slot at most as long as a verification runs (its challenge and a denial,
      // each within the timeout), then sends within the timeout; past this its instance is presumed
      // dead and it runs again.
      expireInSeconds: Math.ceil((3 * deps.timeoutMs) / 1000) + 10,
      deleteAfterSeconds: 86_400,
      notify: true,
    };
    await boss.createQueue(DELIVERY_QUEUE, { policy: "key_strict_fifo", ...options });
    await boss.updateQueue(DELIVERY_QUEUE, options);
    const q = new QueueDeliveries(deps, boss);
    const work = { localConcurrency: deps.concurrency, batchSize: 1, pollingIntervalSeconds: 1 };
    await boss.work<DeliveryJob>(DELIVERY_QUEUE, { ...work, notifyPollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await q.#attempt(job);
    });
    return q;
  }

  async offer(topic: string, content: CurrentTopic, opts: Offer = {}): Promise<number> {
    return publishVersion(this.#d.pool, topic, content, this.#d.clock.now(), opts, async (client, owed, hash) => {
      const jobs = owed.map((subscription) => ({
        data: { subscription, topic, hash } satisfies DeliveryJob,
        singletonKey: `subscription-${subscription}`,
      }));
      const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
      await this.#boss.insert(DELIVERY_QUEUE, jobs, { db });
    });
  }

  async currentHash(topic: string): Promise<string | undefined> {
    return (await this.#latest(topic))?.hash;
  }

  /** Waits until no delivery job is queued, retrying or running on any instance. */
  async idle(): Promise<void> {
    while ((await this.pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Delivery jobs not yet finished (created, retry or active), across all instances. */
  async pending(): Promise<number> {
    const { rows } = await this.#d.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')",
      [DELIVERY_QUEUE],
    );
    return rows[0]?.n ?? 0;
  }

  async close(): Promise<void> {
    // Jobs still running are abandoned, not failed: the survivors re-run them after expiry.
    await this.#boss.stop({ graceful: false, close: true }).catch(() => undefined);
  }

  async #latest(topic: string): Promise<StoredVersion | undefined> {
    const v = await latestVersion(this.#d.pool, topic, this.#cached.get(topic));
    if (v) this.#cached.set(topic, v);
    return v;
  }

  async #attempt(job: Job<DeliveryJob>): Promise<void> {
    const signal = AbortSignal.any([this.#d.signal, job.signal]);
    const fields = { job: job.id, retry: job.retryCount };
    const end = await this.#d.queue.add(
      () =>
        signal.aborted
          ? ({ kind: "aborted" } as const)
          : attemptDelivery(this.#d, job.data.subscription, (topic) => this.#latest(topic), signal, fields),
      { priority: DELIVERY_PRIORITY },
    );
    if (end.kind === "aborted") throw new Error("delivery interrupted by shutdown; the job runs again");
    // A failure to retry throws, so pg-boss schedules the next attempt.
    if (end.kind === "recorded" && end.retryInMs !== undefined && end.outcome.kind === "failed") {
      throw new Error(end.outcome.reason);
    }
  }
}
