import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteHubDb } from "../../../sidecar/hub/sqlite-db.ts";
import { SqliteHubStore } from "../../../sidecar/hub/sqlite-store.ts";
import type { Verification } from "../../../sidecar/hub/store.ts";
import { applyVerified } from "../../../sidecar/hub/subscription-rules.ts";

/**
 * A subscription an earlier version keyed by the callback's WHATWG serialisation (`?q=%27x%27`)
 * is the one a request with the byte-for-byte callback (`?q='x'`) renews or ends.
 */
const TOPIC = "https://reviews.example/feed.xml";
const EXACT = "https://sub.example/cb?q='x'";
const LEGACY = new URL(EXACT).href;
const limits = { maxSubscriptions: 10, maxPerHost: 10 };

let db: SqliteHubDb;
let store: SqliteHubStore;
beforeEach(async () => {
  db = new SqliteHubDb(":memory:");
  store = new SqliteHubStore(db);
  await store.upsert(
    {
      topic: TOPIC,
      callback: LEGACY,
      callbackHost: "sub.example",
      secret: null,
      leaseSeconds: 100,
      expiresAt: 100_000,
      deliveredHash: "owed-from-here",
    },
    0,
  );
});
afterEach(() => store.close());

async function verified(mode: "subscribe" | "unsubscribe"): Promise<Verification> {
  return store.addVerification({
    mode,
    topic: TOPIC,
    givenTopic: TOPIC,
    callback: EXACT,
    callbackHost: "sub.example",
    secret: null,
    leaseSeconds: mode === "subscribe" ? 200 : null,
    requestedAt: 1,
  });
}

describe("requests for a subscription stored by an earlier version", () => {
  it("renews it under the byte-for-byte key, keeping what it was owed, with no second subscription", async () => {
    expect(LEGACY).not.toBe(EXACT);
    const applied = await applyVerified(store, await verified("subscribe"), { now: 5, currentHash: "now", limits });
    expect(applied).toEqual({ kind: "renewed" });
    const all = await store.subscriptions();
    expect(all.map((s) => [s.callback, s.deliveredHash, s.leaseSeconds])).toEqual([[EXACT, "owed-from-here", 200]]);
  });

  it("ends it on unsubscribe", async () => {
    const applied = await applyVerified(store, await verified("unsubscribe"), { now: 5, currentHash: "now", limits });
    expect(applied).toMatchObject({ kind: "unsubscribed", id: expect.any(Number) });
    expect(await store.subscriptions()).toEqual([]);
  });
});
