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
