/**
 * Time as the hub sees it: leases, retry backoff and expiry sweeps all read `now()` and wait with
 * `setTimer`, so tests drive them with a manual clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** setTimeout overflows (and fires at once) above 2^31-1 ms; callers re-check and re-arm. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    // Unref'd: a pending retry or lease sweep must not keep a finished process alive.
    const t = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMEOUT_MS));
    t.unref();
    return () => clearTimeout(t);
  },
};

/**
 * Options that make an `lru-cache` expire entries on `clock` rather than on `performance.now()`,
 * read on every check (lru-cache otherwise reuses one reading for a millisecond).
 */
export function lruOnClock(clock: Pick<Clock, "now">): { perf: { now: () => number }; ttlResolution: 0 } {
  return { perf: { now: () => clock.now() }, ttlResolution: 0 };
}

/**
 * The lru-cache `ttl` of an entry that must be gone from `expiresAt` on (epoch ms, integers):
 * lru-cache drops an entry once its age exceeds its ttl, so the ttl is one less than the time
 * left. Undefined when less than 2 ms are left, which is not worth keeping.
 */
export function ttlUntil(expiresAt: number, now: number): number | undefined {
  const ttl = expiresAt - now - 1;
  return ttl >= 1 ? ttl : undefined;
}
