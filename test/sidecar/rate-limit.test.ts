import { describe, expect, it } from "vitest";
import { clientKey, RateLimiter } from "../../sidecar/rate-limit.ts";

describe("RateLimiter", () => {
  it("allows `limit` requests per client per window, then refuses until the window ends", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    const first = [1, 2, 3, 4].map(() => limiter.hit("a"));
    expect(first.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(first.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(first[3]?.resetS).toBe(60);
    expect(limiter.hit("b").allowed).toBe(true);
    now += 45_500;
    expect(limiter.hit("a")).toMatchObject({ allowed: false, resetS: 15 });
    now += 14_500;
    expect(limiter.hit("a")).toMatchObject({ allowed: true, remaining: 2, resetS: 60 });
  });

  it("holds at most maxClients counters; further clients share one", () => {
    const limiter = new RateLimiter({ limit: 2, maxClients: 2, now: () => 0 });
    expect(limiter.hit("a").allowed).toBe(true);
    expect(limiter.hit("b").allowed).toBe(true);
    expect(limiter.hit("c").allowed).toBe(true);
    expect(limiter.hit("d").allowed).toBe(true);
    expect(limiter.hit("e").allowed).toBe(false);
    expect(limiter.clients).toBe(3);
    expect(limiter.hit("a").allowed).toBe(true);
  });
});

describe("clientKey", () => {
  it("keeps IPv4 addresses, IPv4-mapped ones included", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("::ffff:203.0.113.7");
  });

  it("groups IPv6 addresses by their /56 prefix", () => {
    expect(clientKey("2001:db8:1:2a00::1")).toBe("2001:db8:1:2a00::/56");
    expect(clientKey("2001:db8:1:2aff:ffff::9")).toBe("2001:db8:1:2a00::/56");
    expect(clientKey("2001:db8:1:2b00::1")).not.toBe(clientKey("2001:db8:1:2a00::1"));
    expect(clientKey("::1")).toBe("0:0:0:0::/56");
  });
});
