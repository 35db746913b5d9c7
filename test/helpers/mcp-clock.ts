import type { Clock } from "../../sidecar/mcp/session-registry.ts";

/**
 * The MCP session registry's `Clock`, moved by hand. `advance(ms)` moves time forward and runs
 * every repeating timer that falls due on the way, in order, so expiry and sweeping are tested
 * without sleeping.
 */
export class ManualMcpClock implements Clock {
  #now = 0;
  #timers = new Set<{ period: number; due: number; fn: () => void }>();

  now(): number {
    return this.#now;
  }

  every(ms: number, fn: () => void): () => void {
    const timer = { period: ms, due: this.#now + ms, fn };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** Number of repeating timers still scheduled (a stopped sweeper leaves none). */
  get timers(): number {
    return this.#timers.size;
  }

  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let next: { period: number; due: number; fn: () => void } | undefined;
      for (const t of this.#timers) if (t.due <= target && (!next || t.due < next.due)) next = t;
      if (!next) break;
      this.#now = next.due;
      next.due += next.period;
      next.fn();
    }
    this.#now = target;
  }
}
