import { LRUCache } from "lru-cache";
import type { Config } from "../../src/config.ts";
import { strongEtag } from "../../src/http-headers/manifest.ts";
import type { SearchQuery } from "../../src/search/query.ts";
import type { Outcome } from "../../src/search/query-service.ts";
import { codeIdentity } from "./code-identity.ts";

/**
 * The results of one snapshot: made with it (`Snapshot.results`) and dropped with it, so a new
 * build never meets an old answer and nothing has to clear anything on a swap.
 *
 * It holds what the two doors of the query service (the HTTP routes and the MCP tools) would
 * otherwise compute again for a repeated query: the parsed query for an input already seen, and
 * per canonical query one entry with what was sent: the compressed variants, the identity JSON once
 * a client took it identity or the MCP tool asked, and the frozen object the JSON is of (the MCP
 * `structuredContent`). Both doors read and complete the same entry: a tool call gives browsers
 * their variant without a search, and a browser's search leaves the tool its ETag.
 *
 * Bounded by bytes (RESPONSE_CACHE_MB): bodies, variants, keys and an estimate of each object,
 * least recently used dropped first; one entry may take at most a quarter of the bound. With a
 * bound of 0 nothing is kept: every call parses and computes (the path the memory tests run).
 */
export interface StoredResult {
  /** Strong ETag of the identity body; a variant's is derived from it (`variantEtag`). */
  etag: string;
  /**
   * The identity JSON, once a client took it identity or the MCP tool asked (a since revalidation
   * needs only the ETag; a body sent compressed keeps only its variant).
   */
  body?: Buffer;
  /** The frozen object `body` is the JSON of, and what it adds to the entry's size. */
  value?: { data: object; bytes: number };
  /** Compressed bodies by content coding. */
  variants?: ReadonlyMap<string, Buffer>;
}

type Slot = { query: SearchQuery } | { result: StoredResult };

/** Per-entry overhead counted against the bound besides bodies and keys (objects, strings, LRU slots). */
const ENTRY_OVERHEAD = 160;

function slotBytes(slot: Slot, key: string): number {
  if ("query" in slot) return ENTRY_OVERHEAD + 96 + key.length * 4;
  const r = slot.result;
  let bytes = ENTRY_OVERHEAD + key.length * 2 + r.etag.length * 2 + (r.body?.length ?? 0) + (r.value?.bytes ?? 0);
  for (const v of r.variants?.values() ?? []) bytes += 16 + v.length;
  return bytes;
}

export class ResultStore {
  readonly #lru: LRUCache<string, Slot> | undefined;
  readonly #maxEntryBytes: number;
  /** The bound, in bytes; 0 keeps nothing. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
    this.#maxEntryBytes = Math.max(1, Math.floor(maxBytes / 4));
    if (maxBytes <= 0) return;
    this.#lru = new LRUCache<string, Slot>({ maxSize: maxBytes, sizeCalculation: slotBytes });
  }

  /**
   * The query `input` parses to, remembered under `inputKey` (the input as the transport received
   * it: a query string, a tool's arguments as JSON) when it is valid. Issues are not remembered.
   */
  query(inputKey: string, parse: () => Outcome<SearchQuery>): Outcome<SearchQuery> {
    const known = this.#lru?.get(inputKey);
    if (known && "query" in known) return { ok: true, value: known.query };
    const parsed = parse();
    if (parsed.ok) this.#put(inputKey, { query: parsed.value });
    return parsed;
  }

  /** The entry of a canonical query (`search?<key>`, `since/<date>`), if kept. */
  get(key: string): StoredResult | undefined {
    const slot = this.#lru?.get(key);
    return slot && "result" in slot ? slot.result : undefined;
  }

  /**
   * Keeps `result` under `key`, replacing what was there, and returns true; returns false, keeping
   * the old entry, when it would take more than a quarter of the bound (so adding an optional
   * variant never throws away a body already kept).
   */
  set(key: string, result: StoredResult): boolean {
    return this.#put(key, { result });
  }

  #put(key: string, slot: Slot): boolean {
    if (this.#lru === undefined || slotBytes(slot, key) > this.#maxEntryBytes) return false;
    this.#lru.set(key, slot);
    return true;
  }

  /** Entries kept (parsed queries and results). */
  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** Bytes counted against the bound. */
  get bytes(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}

/**
 * The ETag of a search result: a function of the dataset, the public origin, the canonical query and
 * the code that writes the answer (code-identity.ts), so equivalent URLs (and the MCP tool) share
 * it, and it changes whenever the dataset or the code does.
 */
export function searchEtag(version: string, baseUrl: string, queryKey: string): string {
  return strongEtag(`${codeIdentity()}\n${version}\n${baseUrl}\n${queryKey}`);
}

/**
 * The ETag of since/{date}: a function of the day and of the hash chain of the reviews on or after
 * it (`Snapshot.chain`), known without building the body.
 */
export function sinceEtag(date: string, chain: string): string {
  return strongEtag(`${codeIdentity()}\n${date}\n${chain}`);
}

/** The bound of each snapshot's result store, in bytes: RESPONSE_CACHE_MB (0 keeps nothing). */
export function resultBytesFor(config: Pick<Config, "RESPONSE_CACHE_MB">): number {
  return config.RESPONSE_CACHE_MB * 1024 * 1024;
}
