import { LRUCache } from "lru-cache";
import { lruOnClock, ttlUntil } from "../clock.ts";
import { systemWallClock, type WallClock } from "./session-token.ts";

/**
 * Where ended (`DELETE`d) 2025-era session ids are remembered until they would have expired
 * anyway. Signed ids are otherwise valid on every instance until their expiry, so a store shared
 * by the instances (PostgreSQL under `DATABASE_URL`) makes a `DELETE` on one instance hold on all.
 */
export interface SessionRevocationStore {
  /** Records `id` as ended; `expiresAt` (epoch ms) is when the id stops being valid by itself. */
  revoke(id: string, expiresAt: number): Promise<void>;
  /** Whether `id` was revoked and has not yet expired. */
  isRevoked(id: string): Promise<boolean>;
  close?(): Promise<void>;
}

export interface MemoryRevocationStoreOptions {
  /** At most this many remembered ids (default 10,000). */
  maxEntries?: number;
  clock?: WallClock;
}

/**
 * The one-process store: an LRU of at most `maxEntries` ids, each kept until its own expiry (an
 * expired id is refused by its signature check alone). At the cap, expired ids go first, then the
 * least recently revoked or checked id is dropped: the only effect is that the client that ended that session could use its
 * id again for what is left of its lifetime, which on a public read-only service grants nothing;
 * the cap is what keeps a loop of initialize + DELETE from growing memory.
 */
export class MemoryRevocationStore implements SessionRevocationStore {
  #entries: LRUCache<string, true>;
  #clock: WallClock;

  constructor(opts: MemoryRevocationStoreOptions = {}) {
    this.#clock = opts.clock ?? systemWallClock;
    this.#entries = new LRUCache<string, true>({ max: opts.maxEntries ?? 10_000, ...lruOnClock(this.#clock) });
  }

  get size(): number {
    return this.#entries.size;
  }

  async revoke(id: string, expiresAt: number): Promise<void> {
    const ttl = ttlUntil(expiresAt, this.#clock.now());
    if (ttl === undefined) return;
    // lru-cache evicts the least recently used entry even when an expired one is still held, so
    // a full store forgets its expired ids first (a scan, only when full).
    if (this.#entries.size >= this.#entries.max) this.#entries.purgeStale();
    this.#entries.set(id, true, { ttl });
  }

  async isRevoked(id: string): Promise<boolean> {
    return this.#entries.get(id) === true;
  }

  /** Forgets every expired entry; returns how many. Lookups already ignore expired entries. */
  prune(): number {
    const before = this.#entries.size;
    this.#entries.purgeStale();
    return before - this.#entries.size;
  }
}
