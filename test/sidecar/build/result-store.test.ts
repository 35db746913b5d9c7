import { describe, expect, it } from "vitest";
import { ResultStore } from "../../../sidecar/build/result-store.ts";
import type { SearchQuery } from "../../../src/search/query.ts";

/** The per-snapshot result store: its byte bound, its per-entry bound, and RESPONSE_CACHE_MB=0. */

const query = (key: string): SearchQuery => ({ limit: 20, offset: 0, canonical: [["limit", "20"]], key });

describe("ResultStore", () => {
  it("keeps a result with its variants, and replaces it when a variant is added", () => {
    const store = new ResultStore(64 * 1024);
    expect(store.set("search?a", { etag: '"e"', body: Buffer.from("{}") })).toBe(true);
    const before = store.bytes;
    const gzip = Buffer.alloc(100);
    expect(store.set("search?a", { etag: '"e"', body: Buffer.from("{}"), variants: new Map([["gzip", gzip]]) })).toBe(
      true,
    );
    expect(store.get("search?a")?.variants?.get("gzip")).toBe(gzip);
    expect(store.bytes - before).toBeGreaterThanOrEqual(100);
  });

  it("refuses an entry over a quarter of the bound and keeps the one it would have replaced", () => {
    const store = new ResultStore(64 * 1024);
    store.set("search?a", { etag: '"e"', body: Buffer.alloc(1000) });
    const huge = new Map([["br", Buffer.alloc(16 * 1024)]]);
    expect(store.set("search?a", { etag: '"e"', body: Buffer.alloc(1000), variants: huge })).toBe(false);
    expect(store.get("search?a")?.body?.length).toBe(1000);
  });

  it("drops the least recently used entries to stay within its bound", () => {
    const store = new ResultStore(16 * 1024);
    for (let i = 0; i < 100; i++) store.set(`search?${i}`, { etag: '"e"', body: Buffer.alloc(1000) });
    expect(store.bytes).toBeLessThanOrEqual(16 * 1024);
    expect(store.get("search?99")).toBeDefined();
    expect(store.get("search?0")).toBeUndefined();
  });

  it("remembers a valid parsed query by its input, and never an invalid one", () => {
    const store = new ResultStore(64 * 1024);
    let parses = 0;
    const valid = () => {
      parses++;
      return { ok: true as const, value: query("limit=20&offset=0") };
    };
    const invalid = () => {
      parses++;
      return { ok: false as const, issues: [{ path: "rating", value: "9", message: "expected 1-5" }] };
    };
    expect(store.query("?", valid)).toEqual(store.query("?", valid));
    expect(parses).toBe(1);
    store.query("?rating=9", invalid);
    store.query("?rating=9", invalid);
    expect(parses).toBe(3);
  });

  it("keeps nothing with a bound of 0 (RESPONSE_CACHE_MB=0)", () => {
    const store = new ResultStore(0);
    expect(store.set("search?a", { etag: '"e"', body: Buffer.from("{}") })).toBe(false);
    expect(store.get("search?a")).toBeUndefined();
    let parses = 0;
    const parse = () => {
      parses++;
      return { ok: true as const, value: query("k") };
    };
    store.query("?", parse);
    store.query("?", parse);
    expect(parses).toBe(2);
    expect(store.size).toBe(0);
  });
});
