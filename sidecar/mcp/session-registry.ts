/**
 * Time source and repeating timer, injected so session expiry is tested by moving a clock rather
 * than by sleeping.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (only differences matter). */
  now(): number;
  /** Calls `fn` every `ms` milliseconds until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    // The sweeper must never be what keeps the process alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** Anything the registry can end. */
export interface Closable {
  close(): Promise<void>;
}

/** Why the registry ended a session ("removed" sessions ended themselves and are not reported). */
export type EndReason = "expired" | "evicted" | "shutdown";

export interface SessionRegistryOptions {
  /** A session unused for this long is expired. */
  ttlMs: number;
  /** At most this many live sessions; adding one more evicts the least recently used. */
  maxSessions: number;
  clock?: Clock;
  /** Called once for every session the registry ends itself. */
  onEnd?: (id: string, reason: EndReason) => void;
  /** A session's `close()` rejected: log it; the session is gone from the registry either way. */
  onCloseError?: (id: string, err: unknown) => void;
}

/**
 * Live MCP sessions of an anonymous public endpoint, bounded in time and number so no client can
 * grow the server's memory without limit.
 *
 * Policy at the cap: evict the least recently used session rather than refuse a new one. A session
 * here holds nothing but the negotiated protocol state (every tool is a stateless read), so an
 * evicted client loses one round trip: its next request gets 404 and it re-initializes, as the
 * spec requires. Refusing with 503 instead would let one client that opens `maxSessions` sessions
 * lock every other client out for a whole TTL.
 *
 * The map is kept in least-recently-used order (a touch re-inserts), so eviction takes the first
 * entry and the sweeper stops at the first session that is still fresh.
 */
export class SessionRegistry<S extends Closable> {
  #sessions = new Map<string, { session: S; lastUsed: number }>();
  #ttlMs: number;
  #max: number;
  #clock: Clock;
  #onEnd: (id: string, reason: EndReason) => void;
  #onCloseError: (id: string, err: unknown) => void;
  #stopSweeper: () => void;

  constructor(opts: SessionRegistryOptions) {
    this.#ttlMs = opts.ttlMs;
    this.#max = opts.maxSessions;
    this.#clock = opts.clock ?? systemClock;
    this.#onEnd = opts.onEnd ?? (() => {});
    this.#onCloseError = opts.onCloseError ?? (() => {});
    // Lookups already treat an idle session as gone; the sweep only reclaims memory, so a coarse
    // period (at most a minute, at least a second) is enough.
    const period = Math.min(60_000, Math.max(1_000, Math.floor(this.#ttlMs / 2)));
    this.#stopSweeper = this.#clock.every(period, () => this.sweep());
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Registers a new session as just used, evicting least recently used ones to stay within the cap. */
  add(id: string, session: S): void {
    while (this.#sessions.size >= this.#max) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#end(oldest, "evicted");
    }
    this.#sessions.set(id, { session, lastUsed: this.#clock.now() });
  }

  /** The live session with this id, marked as used now; undefined when unknown or expired. */
  get(id: string): S | undefined {
    const entry = this.#sessions.get(id);
    if (!entry) return undefined;
    const now = this.#clock.now();
    if (now - entry.lastUsed >= this.#ttlMs) {
      this.#end(id, "expired");
      return undefined;
    }
    this.#sessions.delete(id);
    entry.lastUsed = now;
    this.#sessions.set(id, entry);
    return entry.session;
  }

  /** Forgets a session that ended by itself (DELETE, transport closed) without closing it again. */
  remove(id: string): boolean {
    return this.#sessions.delete(id);
  }

  /** Ends every session idle for the TTL or longer; returns how many. */
  sweep(): number {
    const now = this.#clock.now();
    let ended = 0;
    for (const [id, entry] of this.#sessions) {
      if (now - entry.lastUsed < this.#ttlMs) break;
      this.#end(id, "expired");
      ended++;
    }
    return ended;
  }

  /** Stops the sweeper and closes every session (shutdown). */
  async closeAll(): Promise<void> {
    this.#stopSweeper();
    const closing = [...this.#sessions.keys()].map((id) => this.#end(id, "shutdown"));
    await Promise.all(closing);
  }

  #end(id: string, reason: EndReason): Promise<void> {
    const entry = this.#sessions.get(id);
    if (!entry) return Promise.resolve();
    // Deleted first: closing fires the transport's onclose, which calls remove() re-entrantly.
    this.#sessions.delete(id);
    this.#onEnd(id, reason);
    return entry.session.close().catch((err: unknown) => this.#onCloseError(id, err));
  }
}
