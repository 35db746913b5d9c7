import { describe, expect, it } from "vitest";
import { type EndReason, SessionRegistry } from "../sidecar/mcp/session-registry.ts";
import { ManualMcpClock } from "./helpers/mcp-clock.ts";

class FakeSession {
  closed = 0;
  async close() {
    this.closed++;
  }
}

function setup(ttlMs = 60_000, maxSessions = 3) {
  const clock = new ManualMcpClock();
  const ended: [string, EndReason][] = [];
  const registry = new SessionRegistry<FakeSession>({
    ttlMs,
    maxSessions,
    clock,
    onEnd: (id, reason) => ended.push([id, reason]),
  });
  return { clock, ended, registry };
}

describe("SessionRegistry", () => {
  it("treats a session idle for the TTL as gone and closes it, while use keeps it alive", () => {
    const { clock, ended, registry } = setup();
    const a = new FakeSession();
    const b = new FakeSession();
    // Added off the sweeper's 30 s grid, so only the lookup can notice b's expiry.
    clock.advance(1);
    registry.add("a", a);
    registry.add("b", b);
    clock.advance(59_999);
    expect(registry.get("a")).toBe(a); // used: its idle time restarts
    clock.advance(1);
    expect(registry.get("b")).toBeUndefined();
    expect(b.closed).toBe(1);
    expect(ended).toEqual([["b", "expired"]]);
    clock.advance(59_998);
    expect(registry.get("a")).toBe(a);
    expect(a.closed).toBe(0);
  });

  it("sweeps idle sessions on its timer, closing each once and keeping fresh ones", () => {
    const { clock, ended, registry } = setup(10_000, 10);
    const sessions = ["s1", "s2", "s3"].map((id) => {
      const s = new FakeSession();
      registry.add(id, s);
      return s;
    });
    clock.advance(5_000);
    const fresh = new FakeSession();
    registry.add("fresh", fresh);
    // Sweeps run every 5 s; at 10 s the first three have been idle for the TTL, "fresh" for 5 s.
    clock.advance(5_000);
    expect(registry.size).toBe(1);
    expect(sessions.map((s) => s.closed)).toEqual([1, 1, 1]);
    expect(fresh.closed).toBe(0);
    expect(ended.map(([, r]) => r)).toEqual(["expired", "expired", "expired"]);
    clock.advance(5_000);
    expect(registry.size).toBe(0);
    expect(fresh.closed).toBe(1);
  });

  it("evicts the least recently used session when a new one would exceed the cap", () => {
    const { ended, registry } = setup(60_000, 3);
    const s = { a: new FakeSession(), b: new FakeSession(), c: new FakeSession(), d: new FakeSession() };
    registry.add("a", s.a);
    registry.add("b", s.b);
    registry.add("c", s.c);
    registry.get("a"); // now b is the least recently used
    registry.add("d", s.d);
    expect(registry.size).toBe(3);
    expect(registry.get("b")).toBeUndefined();
    expect(s.b.closed).toBe(1);
    expect(ended).toEqual([["b", "evicted"]]);
    expect([registry.get("a"), registry.get("c"), registry.get("d")]).toEqual([s.a, s.c, s.d]);
  });

  it("forgets a session that ended by itself without closing it again", () => {
    const { ended, registry } = setup();
    const a = new FakeSession();
    registry.add("a", a);
    expect(registry.remove("a")).toBe(true);
    expect(registry.remove("a")).toBe(false);
    expect(registry.get("a")).toBeUndefined();
    expect(a.closed).toBe(0);
    expect(ended).toEqual([]);
  });

  it("closes every session and stops its sweeper on shutdown", async () => {
    const { clock, ended, registry } = setup();
    const a = new FakeSession();
    const b = new FakeSession();
    registry.add("a", a);
    registry.add("b", b);
    expect(clock.timers).toBe(1);
    await registry.closeAll();
    expect([a.closed, b.closed]).toEqual([1, 1]);
    expect(ended).toEqual([
      ["a", "shutdown"],
      ["b", "shutdown"],
    ]);
    expect(registry.size).toBe(0);
    expect(clock.timers).toBe(0);
  });

  it("reports a session whose close rejects and still forgets it", async () => {
    const clock = new ManualMcpClock();
    const errors: string[] = [];
    const registry = new SessionRegistry<{ close(): Promise<void> }>({
      ttlMs: 1_000,
      maxSessions: 5,
      clock,
      onCloseError: (id, err) => errors.push(`${id}: ${(err as Error).message}`),
    });
    registry.add("x", { close: () => Promise.reject(new Error("socket gone")) });
    await registry.closeAll();
    expect(errors).toEqual(["x: socket gone"]);
    expect(registry.size).toBe(0);
  });
});
