import type { Clock } from "../../sidecar/clock.ts";

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * The hub's `Clock`, moved only when a test calls `advance`. Timers due within the advanced span
 * fire in order (ties in creation order), each seeing `now()` equal to its due time, so lease and
 * backoff arithmetic is exact. Timers set by a firing timer fire too if they fall in the span.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers = new Set<Timer>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  advance(ms: number): void {
    const target = this.#now + ms;
    for (let t = this.#due(target); t; t = this.#due(target)) {
      this.#timers.delete(t);
      this.#now = t.at;
      t.fn();
    }
    this.#now = target;
  }

  #due(limit: number): Timer | undefined {
    let first: Timer | undefined;
    for (const t of this.#timers) {
      if (t.at <= limit && (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq))) first = t;
    }
    return first;
  }
}
