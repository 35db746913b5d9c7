import { isIPv6 } from "node:net";
import type { Request, RequestHandler, Response } from "express";
import ipaddr from "ipaddr.js";

/**
 * A per-client fixed-window request counter, synchronous and allocation-light because every
 * request but `/healthz` passes it: a limiter that awaits its store on every request (as
 * express-rate-limit does) moves the rest of the request to a later microtask, and its promise
 * machinery is a measurable share of a cached search's CPU.
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
  if (!isIPv6(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return ip;
  const g = address.parts;
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

export interface RateLimitOptions {
  limitPerMinute: number;
  /** Take the client address from `req.ip` (X-Forwarded-For through trusted proxies) rather than the socket. */
  trustProxy: boolean;
  /** Requests this limiter does not count: health checks, and routers that carry their own limit. */
  skip?: (req: Request) => boolean;
  /**
   * Answers the 429 (`Retry-After` is already set): the app throws its JSON error, the hub writes
   * plain text. Passed in, so the limiter depends on neither.
   */
  onLimit: (req: Request, res: Response, retryAfterS: number) => void;
  now?: () => number;
}

/**
 * Per-client fixed window of one minute (`RateLimiter`), with RateLimit and RateLimit-Policy
 * headers and Retry-After on a 429. The one limiter set-up of the service: the app-wide limit and
 * the hub's own limit both come from here, and the app-wide one skips the hub, so a request is
 * counted by exactly one of them.
 */
export function perIpRateLimit({ limitPerMinute, trustProxy, skip, onLimit, now }: RateLimitOptions): RequestHandler {
  const limiter = new RateLimiter({ limit: limitPerMinute, now });
  const policy = `${limitPerMinute};w=60`;
  return (req, res, next) => {
    if (skip?.(req)) return next();
    const ip = (trustProxy ? req.ip : req.socket.remoteAddress) ?? "";
    const d = limiter.hit(clientKey(ip));
    res.setHeader("RateLimit-Policy", policy);
    res.setHeader("RateLimit", `limit=${d.limit}, remaining=${d.remaining}, reset=${d.resetS}`);
    if (d.allowed) return next();
    res.setHeader("Retry-After", String(d.resetS));
    onLimit(req, res, d.resetS);
  };
}
