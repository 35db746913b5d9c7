import fc from "fast-check";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgHubStore } from "../../../sidecar/hub/pg-store.ts";
import { SqliteHubDb } from "../../../sidecar/hub/sqlite-db.ts";
import { SqliteHubStore } from "../../../sidecar/hub/sqlite-store.ts";
import { type HubStore, type Subscription, SubscriptionSchema } from "../../../sidecar/hub/store.ts";
import { forEachHubStore, openHubDatabase, type TestHubDatabase } from "../../helpers/hub-backends.ts";

/**
 * Both stores against a model of what each call means. The SQLite store reuses one prepared
 * statement per query and returns rows without parsing them; this checks, for any sequence of
 * writes, that every read equals the model and equals its own `SubscriptionSchema` parse.
 */

const TOPICS = ["https://t.example/feed.xml", "https://t.example/api/feed.json"];
const CALLBACKS = ["https://a.example/cb", "https://b.example/cb?x=1", "https://a.example/other"];
const HASHES = ["h1", "h2", "h3"];

const text = fc.stringMatching(/^[ -~]{0,24}$/);
const epoch = fc.integer({ min: 0, max: 2 ** 47 });
const input = fc.record({
  topic: fc.constantFrom(...TOPICS),
  callback: fc.constantFrom(...CALLBACKS),
  givenCallback: fc.option(fc.constantFrom(...CALLBACKS), { nil: null }),
  callbackHost: text,
  secret: fc.option(text, { nil: null }),
  leaseSeconds: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  expiresAt: epoch,
  deliveredHash: fc.option(fc.constantFrom(...HASHES), { nil: null }),
});
/** `pick` chooses among the subscriptions that exist when the operation runs (modulo their count). */
const op = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), s: input, now: epoch }),
  fc.record({
    kind: fc.constant("success" as const),
    pick: fc.nat(),
    hash: fc.constantFrom(...HASHES),
    now: epoch,
    // SQLite batches successes: the next call must see one whose promise has not settled yet.
    awaited: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("failure" as const),
    pick: fc.nat(),
    failures: fc.integer({ min: 1, max: 10 }),
    next: epoch,
    now: epoch,
  }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const byKey = (a: Subscription, b: Subscription) =>
  a.topic === b.topic ? (a.callback < b.callback ? -1 : 1) : a.topic < b.topic ? -1 : 1;

async function apply(store: HubStore, model: Map<number, Subscription>, o: Op, settled: Promise<void>[]) {
  if (o.kind === "upsert") {
    await store.upsert(o.s, o.now);
    const found = [...model.values()].find((m) => m.topic === o.s.topic && m.callback === o.s.callback);
    if (found) {
      const { givenCallback, secret, leaseSeconds, expiresAt } = o.s;
      Object.assign(found, { givenCallback, secret, leaseSeconds, expiresAt });
      found.updatedAt = o.now;
      return;
    }
    const id = (await store.subscription(o.s.topic, o.s.callback))?.id;
    if (id === undefined) throw new Error("an inserted subscription cannot be read back");
    const fresh = { ...o.s, id, state: "active", failures: 0, nextAttemptAt: null, createdAt: o.now, updatedAt: o.now };
    model.set(id, fresh as Subscription);
    return;
  }
  const ids = [...model.keys()];
  const id = ids[o.pick % Math.max(1, ids.length)];
  const m = id === undefined ? undefined : model.get(id);
  if (id === undefined || !m) return;
  if (o.kind === "success") {
    const write = store.recordSuccess(id, o.hash, o.now);
    if (o.awaited || !(store instanceof SqliteHubStore)) await write;
    else settled.push(write);
    Object.assign(m, { state: "active", failures: 0, nextAttemptAt: null, deliveredHash: o.hash, updatedAt: o.now });
  } else if (o.kind === "failure") {
    await store.recordFailure(id, o.failures, o.next, o.now);
    Object.assign(m, { state: "retrying", failures: o.failures, nextAttemptAt: o.next, updatedAt: o.now });
  } else {
    await store.remove(id);
    model.delete(id);
  }
}

async function expectMatches(store: HubStore, model: Map<number, Subscription>): Promise<void> {
  const all = await store.subscriptions();
  for (const row of all) expect(row).toStrictEqual(SubscriptionSchema.parse(row));
  expect(all).toStrictEqual([...model.values()].sort(byKey));
  for (const [id, m] of model) expect(await store.subscriptionById(id)).toStrictEqual(m);
  for (const topic of TOPICS) {
    for (const hash of HASHES) {
      const owed = [...model.values()].filter((m) => m.topic === topic && m.deliveredHash !== hash);
      expect(await store.owed(topic, hash)).toStrictEqual(owed.sort((a, b) => a.id - b.id));
    }
  }
}

forEachHubStore((backend) => {
  let db: TestHubDatabase | undefined;
  let sqlite: SqliteHubDb | undefined;
  let store: HubStore;

  beforeAll(async () => {
    db = await openHubDatabase(backend, `store-test-${backend}`, pino({ level: "silent" }));
    if (db) store = new PgHubStore(db.database.pool);
    else {
      sqlite = new SqliteHubDb(":memory:");
      store = new SqliteHubStore(sqlite);
    }
  });
  afterAll(async () => {
    await store.close();
    await db?.close();
  });

  describe("subscriptions", () => {
    it("reads back exactly what was written, for any sequence of writes", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 14 }), async (ops) => {
          for (const s of await store.subscriptions()) await store.remove(s.id);
          const model = new Map<number, Subscription>();
          const settled: Promise<void>[] = [];
          for (const [i, o] of ops.entries()) {
            await apply(store, model, o, settled);
            // Every other step reads inside a transaction, which must see the same.
            if (i % 2) await expectMatches(store, model);
            else await store.transaction(async (tx) => expectMatches(tx, model));
          }
          await Promise.all(settled);
        }),
        { numRuns: backend === "postgres" ? 25 : 60 },
      );
    });
  });
});
