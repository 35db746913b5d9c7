import { describe, expect, it } from "vitest";
import { type CachedResponse, ResponseCache } from "../../sidecar/response-cache.ts";

/**
 * `grow` adds the MCP fast path's answer bytes to an entry (sidecar/mcp/fast-call.ts): counted
 * against the bound, and never at the price of the entry itself.
 */

const entry = (bodyBytes: number): CachedResponse => ({
  etag: '"e"',
  coding: "identity",
  body: Buffer.alloc(bodyBytes, 120),
});

describe("ResponseCache.grow", () => {
  it("replaces an entry with its larger version and counts the added bytes", () => {
    const cache = new ResponseCache(64 * 1024);
    const key = ResponseCache.key("v1", "search?q", "identity");
    const small = entry(1000);
    cache.set(key, small);
    const before = cache.bytes;
    const grown = { ...small, rpc: Buffer.alloc(2100) };
    expect(cache.grow(key, grown)).toBe(true);
    expect(cache.get(key)).toBe(grown);
    expect(cache.bytes - before).toBe(2100);
  });

  it("keeps the old entry when the larger one would pass the per-entry bound (a quarter)", () => {
    const cache = new ResponseCache(64 * 1024);
    const key = ResponseCache.key("v1", "search?q", "identity");
    const body = entry(10 * 1024);
    cache.set(key, body);
    const bytes = cache.bytes;
    expect(cache.grow(key, { ...body, rpc: Buffer.alloc(8 * 1024) })).toBe(false);
    expect(cache.get(key)).toBe(body);
    expect(cache.bytes).toBe(bytes);
  });

  it("stores nothing when the cache is off", () => {
    const cache = new ResponseCache(0);
    expect(cache.grow("k", { ...entry(10), rpc: Buffer.alloc(10) })).toBe(false);
    expect(cache.size).toBe(0);
  });
});
