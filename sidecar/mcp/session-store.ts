import { LRUCache } from "lru-cache";
import { lruOnClock, ttlUntil } from "../clock.ts";
import { systemWallClock, type WallClock } from "./session-token.ts";

/**
 * Where 2025-era sessions are kept alive by use and ended by `DELETE`. A signed id carries its
 * first expiry (its `initialize` plus the idle timeout); each use moves the expiry to the idle
 * timeout from then, recorded here, and a `DELETE` marks the id ended. The id stays stateless to
 * verify; this store holds only the time of the last use and the ended mark, so a store shared by
 * the instances (PostgreSQL under `DATABASE_URL`) makes both hold on every instance.
 */
export interface SessionStore {
  /**
   * A use of session `id` (its signature already checked) whose signed first expiry is
   * `firstExpiry`: its new expiry (epoch ms), or undefined when it was ended or sat idle past its
   * expiry.
   */
  use(id: string, firstExpiry: number): Promise<number | undefined>;
  /** Marks `id` ended, remembered until `until` (epoch ms), past which its own signed expiry has passed. */
  end(id: string, until: number): Promise<void>;
  close?(): Promise<void>;
}

/** What a store remembers of one session. */
export interface SessionRecord {
  /** When the session expires unless used again (epoch ms). */
  expiresAt: number;
  ended: boolean;
}

/**
 * The rule both stores apply: a session is live until the later of its signed first expiry and
 * its recorded one, unless ended; a use moves its expiry to `idleMs` from `now`.
 */
export function expiryAfterUse(
  record: SessionRecord | undefined,
  firstExpiry: number,
  now: number,
  idleMs: number,
): number | undefined {
  if (record?.ended) return undefined;
  if (Math.max(firstExpiry, record?.expiresAt ?? 0) <= now) return undefined;
  return now + idleMs;
}

export interface MemorySessionStoreOptions {
  /** The idle timeout (`MCP_SESSION_TTL_MS`). */
  idleMs: number;
  /** At most this many remembered sessions (default 10,000). */
  maxEntries?: number;
  clock?: WallClock;
}

/**
 * The store of a router given none (in-process use; the service keeps its sessions in SQLite or
 * PostgreSQL, so they outlive a restart): an LRU of at most `maxEntries` sessions, each kept
 * until its expiry. At the cap, expired entries go first, then the least recently used: that
 * session falls back to its signed first expiry (so a long-idle one gets 404), or an ended id
 * becomes usable again until then, which on a public read-only service grants nothing. The cap is
 * what keeps a loop of initialize + DELETE from growing memory.
 */
export class MemorySessionStore implements SessionStore {
  #entries: LRUCache<string, SessionRecord>;
  #idleMs: number;
  #clock: WallClock;

  constructor(opts: MemorySessionStoreOptions) {
    this.#idleMs = opts.idleMs;
    this.#clock = opts.clock ?? systemWallClock;
    this.#entries = new LRUCache<string, SessionRecord>({ max: opts.maxEntries ?? 10_000, ...lruOnClock(this.#clock) });
  }

  get size(): number {
    return this.#entries.size;
  }

  async use(id: string, firstExpiry: number): Promise<number | undefined> {
    const now = this.#clock.now();
    const expiresAt = expiryAfterUse(this.#entries.get(id), firstExpiry, now, this.#idleMs);
    if (expiresAt !== undefined) this.#keep(id, { expiresAt, ended: false }, now);
    return expiresAt;
  }

  async end(id: string, until: number): Promise<void> {
    this.#keep(id, { expiresAt: until, ended: true }, this.#clock.now());
  }

  #keep(id: string, record: SessionRecord, now: number): void {
    const ttl = ttlUntil(record.expiresAt, now);
    if (ttl === undefined) return;
    // lru-cache evicts the least recently used entry even when an expired one is still held, so
    // a full store forgets its expired entries first (a scan, only when full).
    if (this.#entries.size >= this.#entries.max && !this.#entries.has(id)) this.#entries.purgeStale();
    this.#entries.set(id, record, { ttl });
  }

  /** Forgets every expired entry; returns how many. Lookups already ignore expired entries. */
  prune(): number {
    const before = this.#entries.size;
    this.#entries.purgeStale();
    return before - this.#entries.size;
  }
}
