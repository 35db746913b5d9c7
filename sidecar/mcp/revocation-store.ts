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
 * The one-process store. Entries are pruned once expired (an expired id is refused by its
 * signature check alone). At the cap, the entry closest to its own expiry is dropped: the only
 * effect is that the client that ended that session could use its id again for what is left of
 * its lifetime, which on a public read-only service grants nothing; the cap is what keeps a loop
 * of initialize + DELETE from growing memory.
 */
export class MemoryRevocationStore implements SessionRevocationStore {
  #entries = new Map<string, number>();
  #max: number;
  #clock: WallClock;

  constructor(opts: MemoryRevocationStoreOptions = {}) {
    this.#max = opts.maxEntries ?? 10_000;
    this.#clock = opts.clock ?? systemWallClock;
  }

  get size(): number {
    return this.#entries.size;
  }

  async revoke(id: string, expiresAt: number): Promise<void> {
    if (expiresAt <= this.#clock.now()) return;
    this.#entries.delete(id);
    // Pruning scans every entry, so it runs only when the store is full, not on every call.
    if (this.#entries.size >= this.#max) this.prune();
    while (this.#entries.size >= this.#max) this.#dropSoonest();
    this.#entries.set(id, expiresAt);
  }

  async isRevoked(id: string): Promise<boolean> {
    const exp = this.#entries.get(id);
    if (exp === undefined) return false;
    if (exp <= this.#clock.now()) {
      this.#entries.delete(id);
      return false;
    }
    return true;
  }

  /** Forgets every expired entry; returns how many. Lookups already ignore expired entries. */
  prune(): number {
    const now = this.#clock.now();
    let pruned = 0;
    for (const [id, exp] of this.#entries) {
      if (exp > now) continue;
      this.#entries.delete(id);
      pruned++;
    }
    return pruned;
  }

  #dropSoonest(): void {
    let soonest: string | undefined;
    let soonestExp = Number.POSITIVE_INFINITY;
    for (const [id, exp] of this.#entries) {
      if (exp < soonestExp) [soonest, soonestExp] = [id, exp];
    }
    if (soonest !== undefined) this.#entries.delete(soonest);
  }
}
