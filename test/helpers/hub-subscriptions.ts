import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, expect, inject } from "vitest";
import { PgHubStore } from "../../sidecar/hub/pg-store.ts";
import { SqliteHubDb, STORE_FILE } from "../../sidecar/hub/sqlite-db.ts";
import type { SubscriptionInput } from "../../sidecar/hub/store.ts";
import { heldResponder, type Subscriber, startSubscriber } from "./https-subscriber.ts";
import { currentBackend, openHubDatabase } from "./hub-backends.ts";
import { type Harness, startHarness, TOPICS } from "./hub-harness.ts";

export interface SubscriptionBench {
  /** This test's hub. */
  readonly h: Harness;
  /** This test's subscriber, which answers every verification as it should unless told otherwise. */
  readonly sub: Subscriber;
  /** More harnesses a test started, closed after it. */
  extra: { close(): Promise<unknown> }[];
  /** A subscription request's form for the Atom feed. */
  form(mode: string, callback: string, more?: Record<string, string>): Record<string, string>;
  /** The subscriber answers every request only once the returned function is called. */
  holdVerifications(): () => void;
  /** Writes a subscription row as it is given, through a connection of its own. */
  storeDirectly(on: Harness, row: SubscriptionInput): Promise<unknown>;
  /** A subscribe request answered 202, and its verification done. */
  subscribed(callback: string, more?: Record<string, string>, on?: Harness): Promise<void>;
}

/**
 * For a suite of the hub's subscription requests (inside forEachHubStore): a fresh hub harness and
 * a trusted HTTPS subscriber for each test, closed after it with the harnesses it put in `extra`,
 * and the requests the suites send.
 */
export function subscriptionBench(): SubscriptionBench {
  let harness: Harness | undefined;
  let subscriber: Subscriber | undefined;
  const extra: { close(): Promise<unknown> }[] = [];
  beforeEach(async () => {
    harness = await startHarness();
    subscriber = await startSubscriber(inject("testTls").trusted);
  });
  afterEach(async () => {
    await harness?.close();
    await subscriber?.close();
    await Promise.all(extra.splice(0).map((x) => x.close()));
  });
  const bench: SubscriptionBench = {
    get h(): Harness {
      if (!harness) throw new Error("subscriptionBench: no harness outside a test");
      return harness;
    },
    get sub(): Subscriber {
      if (!subscriber) throw new Error("subscriptionBench: no subscriber outside a test");
      return subscriber;
    },
    extra,
    form(mode, callback, more = {}) {
      return { "hub.mode": mode, "hub.topic": TOPICS.atom, "hub.callback": callback, ...more };
    },
    holdVerifications() {
      const { respond, release } = heldResponder();
      bench.sub.respond = respond;
      return release;
    },
    async storeDirectly(on, row) {
      const shared = await openHubDatabase(currentBackend(), on.dataDir, pino({ level: "silent" }));
      if (shared) return new PgHubStore(shared.database.pool).upsert(row, 0).finally(() => shared.close());
      const db = new SqliteHubDb(path.join(on.dataDir, STORE_FILE));
      try {
        db.upsert(row, 0);
      } finally {
        db.close();
      }
    },
    async subscribed(callback, more = {}, on = bench.h) {
      const res = await on.post(bench.form("subscribe", callback, more));
      expect(res.status).toBe(202);
      await on.hub.idle();
    },
  };
  return bench;
}

/**
 * For a test file whose tests start their own hubs and subscribers: `harness` and `subscriber`
 * start one, `closeAfter` takes anything else to close, and each is closed after its test.
 */
export function perTestHubs(): {
  harness(opts?: Parameters<typeof startHarness>[0]): Promise<Harness>;
  subscriber(): Promise<Subscriber>;
  closeAfter(x: { close(): Promise<unknown> }): void;
} {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((x) => x.close()));
  });
  return {
    async harness(opts = {}) {
      const h = await startHarness(opts);
      open.push(h);
      return h;
    },
    async subscriber() {
      const s = await startSubscriber(inject("testTls").trusted);
      open.push(s);
      return s;
    },
    closeAfter(x) {
      open.push(x);
    },
  };
}
