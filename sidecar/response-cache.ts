import { LRUCache } from "lru-cache";
import type { Config } from "../src/config.ts";
import { strongEtag } from "../src/http-headers/manifest.ts";
import type { Coding } from "./http/content-coding.ts";

/**
 * Finished dynamic responses, keyed by (build version, canonical query, accepted content coding):
 * a hit sends stored bytes with a stored ETag, so no parsing of the dataset, no search, no JSON
 * and no compression run twice for one query in one build. Bounded by bytes (bodies plus keys),
 * least recently used dropped first, and cleared when a new build is swapped in.
 *
 * An entry may hold only the validator: a since/{date} revalidation learns its ETag without
 * building a body that may be megabytes, and the body is added when a 200 needs it.
 *
 * One cache per process, shared by the two doors of the query service: the HTTP routes
 * (sidecar/http/review-routes.ts) and the MCP tools (sidecar/mcp/cached-results.ts), whose text
 * is the identity body. It lives outside both so that MCP does not depend on an HTTP module.
 */
export interface CachedResponse {
  /** Strong ETag of `body` in `coding`. */
  etag: string;
  /** The coding actually used: identity when the body is too small to be worth compressing. */
  coding: Coding;
  body?: Buffer;
  /**
   * The object `body` is the JSON of, for the MCP tools, whose results carry it as
   * `structuredContent` (sidecar/mcp/cached-results.ts): parsing the body back would cost more
   * than the search. Frozen; its records are the snapshot's own, shared rather than copied, so
   * `bytes` counts only what the entry adds (the object, its array, its strings).
   */
  value?: { data: object; bytes: number };
}

/**
 * The ETag of a search result: a function of the dataset, the public origin and the canonical
 * query, so equivalent URLs (and the MCP tool) share it, and it changes whenever the dataset does.
 */
export function searchEtag(version: string, baseUrl: string, queryKey: string): string {
  return strongEtag(`${version}\n${baseUrl}\n${queryKey}`);
}

/**
 * The ETag of since/{date}: a function of the day and of the hash chain of the reviews on or after
 * it (`Snapshot.chain`), known without building the body.
 */
export function sinceEtag(date: string, chain: string): string {
  return strongEtag(`${date}\n${chain}`);
}

/** Per-entry overhead counted against the bound besides body and key (object, strings, LRU slots). */
const ENTRY_OVERHEAD = 160;

export class ResponseCache {
  #lru: LRUCache<string, CachedResponse> | undefined;

  /**
   * `maxBytes` bounds the sum of entry sizes; one entry may take at most a quarter of it. With 0
   * nothing is stored, and every request takes the uncached path.
   */
  constructor(maxBytes: number) {
    if (maxBytes <= 0) return;
    this.#lru = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
      sizeCalculation: (v, k) =>
        ENTRY_OVERHEAD + k.length * 2 + v.etag.length * 2 + (v.body?.length ?? 0) + (v.value?.bytes ?? 0),
    });
  }

  static key(version: string, query: string, coding: Coding): string {
    return `${version}\n${coding}\n${query}`;
  }

  get(key: string): CachedResponse | undefined {
    return this.#lru?.get(key);
  }

  /** An entry too large for the bound is not stored; the response is still sent. */
  set(key: string, value: CachedResponse): void {
    this.#lru?.set(key, value);
  }

  clear(): void {
    this.#lru?.clear();
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }

  get bytes(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}

/** The one response cache of a process, sized by RESPONSE_CACHE_MB; the app and the MCP tools share it. */
export function responseCacheFor(config: Pick<Config, "RESPONSE_CACHE_MB">): ResponseCache {
  return new ResponseCache(config.RESPONSE_CACHE_MB * 1024 * 1024);
}
