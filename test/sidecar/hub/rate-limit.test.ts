import { describe, expect, it } from "vitest";
import { startHarness, TOPICS } from "../../helpers/hub-harness.ts";

/** The hub's own per-client limit on requests, whatever their method, each on a harness of its own. */

describe("rate limit", () => {
  it("answers 429 with Retry-After once a client exceeds the per-minute limit", async () => {
    const limited = await startHarness({ env: { HUB_RATE_LIMIT_PER_MINUTE: "2" } });
    try {
      const ping = { "hub.mode": "publish", "hub.url": TOPICS.atom };
      expect((await limited.post(ping)).status).toBe(202);
      expect((await limited.post(ping)).status).toBe(202);
      const res = await limited.post(ping);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await res.text()).toBe("Too many hub requests: the limit is 2 per minute per client.\n");
    } finally {
      await limited.close();
    }
  });
});

describe("rate limit of the other methods", () => {
  it("counts a GET or OPTIONS of the hub too: the app-wide limiter leaves the hub's path to it", async () => {
    const limited = await startHarness({ env: { HUB_RATE_LIMIT_PER_MINUTE: "2" } });
    try {
      expect((await fetch(limited.endpoint)).status).toBe(405);
      expect((await fetch(limited.endpoint, { method: "OPTIONS" })).status).toBe(204);
      const res = await fetch(limited.endpoint);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.post({ "hub.mode": "publish", "hub.url": TOPICS.atom })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
