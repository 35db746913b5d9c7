import { isIPv6 } from "node:net";

/**
 * A per-client fixed-window request counter, synchronous and allocation-light because every
 * request but `/healthz` passes it. express-rate-limit, used before, awaited its store on every
 * request, so the rest of the request ran in a later microtask; its key work and promise
 * machinery were a measurable share of a cached search's CPU (docs/benchmarks-log.md).
 *
 * Every client's window starts and ends together (a window begins at the first request after the
 * previous one ended), so the state is one map cleared once per window. The map is bounded: past
 * `maxClients` distinct clients in one window, new clients share one counter, so an address spray
 * is limited as a whole rather than growing memory.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetS: number;
}

const OVERFLOW_KEY = "(overflow)";

/**
 * The key of a client address: IPv6 clients are grouped by their /56 prefix, as a single
 * subscriber is commonly given one, so rotating within it does not multiply the budget.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip) || ip.toLowerCase().startsWith("::ffff:")) return ip;
  const [head = "", tail] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  const g = groups.map((x) => Number.parseInt(x || "0", 16));
  return `${g
    .slice(0, 3)
    .map((x) => x.toString(16))
    .join(":")}:${((g[3] ?? 0) & 0xff00).toString(16)}::/56`;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  #now: () => number;
  #maxClients: number;
  #counts = new Map<string, number>();
  #windowEnd = 0;

  constructor(opts: { limit: number; windowMs?: number; maxClients?: number; now?: () => number }) {
    this.limit = opts.limit;
    this.windowMs = opts.windowMs ?? 60_000;
    this.#maxClients = opts.maxClients ?? 100_000;
    this.#now = opts.now ?? Date.now;
  }

  /** Counts one request of `key` and says whether it is within the limit. */
  hit(key: string): RateDecision {
    const now = this.#now();
    if (now >= this.#windowEnd) {
      this.#counts.clear();
      this.#windowEnd = now + this.windowMs;
    }
    const k = this.#counts.has(key) || this.#counts.size < this.#maxClients ? key : OVERFLOW_KEY;
    const n = (this.#counts.get(k) ?? 0) + 1;
    this.#counts.set(k, n);
    return {
      allowed: n <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - n),
      resetS: Math.max(1, Math.ceil((this.#windowEnd - now) / 1000)),
    };
  }

  /** Distinct counters held in the current window (for tests: the bound holds). */
  get clients(): number {
    return this.#counts.size;
  }
}
