import type PQueue from "p-queue";
import type { Logger } from "pino";
import type { Clock } from "../clock.ts";
import { queueErrorLog } from "../db/queue-errors.ts";
import type { HubStore } from "./store.ts";

/**
 * Requests awaiting verification of intent, queued on this instance. With a shared database any
 * instance may verify a request another one accepted: the instance verifying a request holds it
 * (`HubStore.claimVerification`) for `claimMs`; one that dies mid-way (SIGKILL, a lost machine, a
 * failed database write) stops holding it once that has passed, and one that shuts down gives it
 * back. `supervise` takes up the requests nobody holds, so a 202 is followed by its verification
 * while any instance lives, not only once the instance that accepted it starts again.
 */

/** How long a verification holds its request: the challenge and a denial notice (each bounded by the timeout) and the writes around them. */
export function claimMs(timeoutMs: number): number {
  return 2 * timeoutMs + 60_000;
}

/**
 * The longest one verification in flight takes, in whole seconds: its challenge and a denial notice,
 * each within the timeout. A request refused for the pending limits is told to wait this long.
 */
export function verificationSeconds(config: { HUB_DELIVERY_TIMEOUT_MS: number }): number {
  return Math.ceil((2 * config.HUB_DELIVERY_TIMEOUT_MS) / 1000);
}

export interface VerificationQueueOptions {
  /** The hub's queue of outbound requests. */
  queue: PQueue;
  verify(id: number): Promise<void>;
  track(job: Promise<unknown>): void;
  clock: Clock;
  log: Logger;
}

export class VerificationQueue {
  readonly #o: VerificationQueueOptions;
  readonly #queued = new Set<number>();
  #cancel: (() => void) | undefined;

  constructor(o: VerificationQueueOptions) {
    this.#o = o;
  }

  /** Queues a verification of request `id`, unless it is queued here already. */
  add(id: number): void {
    if (this.#queued.has(id)) return;
    this.#queued.add(id);
    const job = this.#o.queue.add(() => this.#o.verify(id)).finally(() => this.#queued.delete(id));
    this.#o.track(job.catch((err: unknown) => this.#o.log.error({ err, verification: id }, "verification job failed")));
  }

  /** Every `everyMs`, one look at a time, queues the requests no instance holds. */
  supervise(store: Pick<HubStore, "unclaimedVerifications">, everyMs: number): void {
    let looking = false;
    // While the database is down every look fails: said once a minute, as the queues say it.
    const cannot = queueErrorLog(this.#o.log, "cannot look for requests awaiting verification");
    const look = () => {
      this.#cancel = this.#o.clock.setTimer(look, everyMs);
      if (looking) return;
      looking = true;
      const found = store.unclaimedVerifications(this.#o.clock.now()).then(
        (ids) => {
          for (const id of ids) this.add(id);
        },
        (err: unknown) => cannot(err instanceof Error ? err : new Error(String(err))),
      );
      this.#o.track(
        found.finally(() => {
          looking = false;
        }),
      );
    };
    this.#cancel = this.#o.clock.setTimer(look, everyMs);
  }

  stop(): void {
    this.#cancel?.();
  }
}
