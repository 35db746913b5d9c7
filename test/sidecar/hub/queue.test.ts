import pino from "pino";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { listenForBuilds, liveBuild, recordLiveBuild } from "../../../sidecar/db/build-broadcast.ts";
import { createPool, migrate } from "../../../sidecar/db/postgres.ts";
import { openPublishQueue } from "../../../sidecar/db/publish-jobs.ts";
import { claimMs } from "../../../sidecar/hub/verification-claims.ts";
import { cooperative, isDelivery, isVerification, startSubscriber } from "../../helpers/https-subscriber.ts";
import { closePgServer, forEachHubStore, POSTGRES_UNAVAILABLE, pgServer } from "../../helpers/hub-backends.ts";
import { type Harness, TOPICS } from "../../helpers/hub-harness.ts";
import { closeOpened, instances, open, subscribedAtV1 } from "../../helpers/hub-instances.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";
import { until } from "../../helpers/until.ts";

/**
 * What only the shared (PostgreSQL) mode has: several instances, the job queue, migrations, the
 * broadcast. The waits only real time passes (retry backoff, a paused database) are in
 * queue-waits.test.ts, in `test:all`.
 */

const tls = inject("testTls");
const silent = pino({ level: "silent" });

afterEach(closeOpened);

/** Moves `h`'s clock on by `ms`, a second at a time, letting what each second starts finish. */
async function runFor(h: Harness, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    h.clock.advance(1000);
    await h.hub.idle();
  }
}

forEachHubStore(() => {
  describe("a request awaiting verification", () => {
    it("is verified by another instance when the one that accepted it stops mid-verification", async () => {
      const [a, b] = (await instances(2)) as [Harness, Harness];
      const sub = await startSubscriber(tls.trusted, () => new Promise(() => {}));
      open(sub);
      const form = { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() };
      expect((await a.post(form)).status).toBe(202);
      await sub.waitFor(isVerification());
      // A leaves for good (a rolling deploy that removes it); B keeps running.
      await a.close();
      sub.respond = cooperative;
      await runFor(b, 1000);
      expect(sub.requests.filter(isVerification())).toHaveLength(2);
      expect(await b.pending()).toEqual([]);
      expect(await b.stored()).toMatchObject([{ topic: TOPICS.atom, callback: sub.callback() }]);
    });

    it("is taken over from an instance that died mid-verification once its hold lapses, and only then", async () => {
      const [a, b] = (await instances(2)) as [Harness, Harness];
      const sub = await startSubscriber(tls.trusted, () => new Promise(() => {}));
      open(sub);
      const form = { "hub.mode": "subscribe", "hub.topic": TOPICS.json, "hub.callback": sub.callback() };
      expect((await a.post(form)).status).toBe(202);
      // A never answers for its request again, as if killed: its challenge is left hanging.
      await sub.waitFor(isVerification());
      sub.respond = cooperative;
      const held = claimMs(a.config.HUB_DELIVERY_TIMEOUT_MS);
      await runFor(b, held - 10_000);
      expect(sub.requests.filter(isVerification())).toHaveLength(1);
      await runFor(b, 11_000);
      expect(sub.requests.filter(isVerification())).toHaveLength(2);
      expect(await b.stored()).toMatchObject([{ topic: TOPICS.json, callback: sub.callback() }]);
    });
  });

  describe("two instances sharing one database", () => {
    it("notifies each subscriber once per change, whichever instance took the subscription or the publish", async () => {
      const [a, b] = (await instances(2)) as [Harness, Harness];
      const sub = await startSubscriber(tls.trusted);
      open(sub);
      await a.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      await a.hub.publish();
      for (let i = 0; i < 6; i++) {
        const via = i % 2 === 0 ? a : b;
        const res = await via.post({
          "hub.mode": "subscribe",
          "hub.topic": TOPICS.atom,
          "hub.callback": sub.callback(`/s${i}`),
        });
        expect(res.status).toBe(202);
      }
      await a.hub.idle();
      await b.hub.idle();
      expect(await b.stored()).toHaveLength(6);

      await a.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      // Both instances hear of the change; only the first to publish the version queues jobs.
      const [ra, rb] = await Promise.all([a.hub.publish([TOPICS.atom]), b.hub.publish([TOPICS.atom])]);
      expect((ra.topics[0]?.owed ?? 0) + (rb.topics[0]?.owed ?? 0)).toBe(6);
      await a.hub.idle();
      const bodies = sub.requests.filter(isDelivery).map((r) => `${r.rawUrl} ${r.body}`);
      expect(bodies.sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/s${i} <feed>v2</feed>`));
      expect((await a.stored()).every((s) => s.state === "active" && s.failures === 0)).toBe(true);
    });
  });

  describe("the delivery queue", () => {
    it("takes an earlier version back when told to publish it, but not from an offer that refuses reverts", async () => {
      const { h, sub } = await subscribedAtV1();
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.hub.publish([TOPICS.atom]);
      await h.hub.idle();
      // v1 again, as an instance still serving it offers it after an outage: no news, nothing sent.
      await h.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      expect((await h.hub.publish([TOPICS.atom], { revert: false })).topics).toEqual([{ topic: TOPICS.atom, owed: 0 }]);
      await h.hub.idle();
      expect(sub.requests.filter(isDelivery).map((r) => r.body.toString())).toEqual(["<feed>v2</feed>"]);
      // An operator's deploy of the older build is a revert, and is sent.
      expect((await h.hub.publish([TOPICS.atom])).topics).toEqual([{ topic: TOPICS.atom, owed: 1 }]);
      await h.hub.idle();
      expect(sub.requests.filter(isDelivery).map((r) => r.body.toString())).toEqual([
        "<feed>v2</feed>",
        "<feed>v1</feed>",
      ]);
    });
  });
}, ["postgres"]);

describeWithPackage(POSTGRES_UNAVAILABLE, "migrations and the build broadcast", () => {
  afterAll(closePgServer);
  it("apply once, even when two instances start at the same moment", async () => {
    const url = await createDatabase(await pgServer());
    const pools = [createPool(url, silent), createPool(url, silent)];
    try {
      const [x, y] = await Promise.all(pools.map((p) => migrate(p, silent)));
      expect([...(x ?? []), ...(y ?? [])]).toEqual([
        "001-hub",
        "002-mcp-revocations",
        "003-live-build",
        "004-mcp-sessions",
        "005-hub-given-topic",
        "006-hub-verification-claims",
        "007-hub-given-callback",
      ]);
      expect(await migrate(pools[0] as never, silent)).toEqual([]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it("record the live build and announce it to every listening instance", async () => {
    const url = await createDatabase(await pgServer());
    const pool = createPool(url, silent);
    await migrate(pool, silent);
    const heard: string[] = [];
    const queues = await Promise.all(
      ["a", "b"].map(() => openPublishQueue({ url, log: silent, superviseSeconds: 10 })),
    );
    try {
      // Each listener also calls back once it is connected (a notice may have been missed before).
      await Promise.all(queues.map((q, i) => listenForBuilds(q.db, silent, () => heard.push(["a", "b"][i] as string))));
      await until(() => heard.length >= 2);
      heard.length = 0;
      expect(await liveBuild(pool)).toBeUndefined();
      await recordLiveBuild(pool, "build-1");
      await until(() => heard.length >= 2);
      expect(heard.sort()).toEqual(["a", "b"]);
      await recordLiveBuild(pool, "build-2");
      expect(await liveBuild(pool)).toBe("build-2");
    } finally {
      await Promise.all(queues.map((q) => q.close()));
      await pool.end();
    }
  });
});
