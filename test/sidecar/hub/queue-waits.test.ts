import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { listenForBuilds, recordLiveBuild } from "../../../sidecar/db/build-broadcast.ts";
import { createPool, migrate } from "../../../sidecar/db/postgres.ts";
import { openPublishQueue } from "../../../sidecar/db/publish-jobs.ts";
import { cooperative, isDelivery } from "../../helpers/https-subscriber.ts";
import { forEachHubStore, POSTGRES_UNAVAILABLE, pgServer } from "../../helpers/hub-backends.ts";
import { type Harness, TOPICS } from "../../helpers/hub-harness.ts";
import { closeOpened, instances, subscribedAtV1 } from "../../helpers/hub-instances.ts";
import { createDatabase, startPgServer } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";
import { until } from "../../helpers/until.ts";

/**
 * The PostgreSQL job queue's waits that only real time passes (`test:all`; vitest.config.ts): a
 * delivery's retry backoff, and a database paused under the queue's workers and its build
 * listener. The rest of the shared mode is in queue.test.ts, in `npm test`.
 */

const silent = pino({ level: "silent" });

afterEach(closeOpened);

forEachHubStore(() => {
  describe("the delivery queue", () => {
    it("retries with backoff and removes the subscription after 3 consecutive failures", async () => {
      const { h, sub } = await subscribedAtV1();
      sub.respond = (r) => (r.method === "POST" ? { status: 500 } : cooperative(r));
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.hub.publish();
      await sub.waitFor(isDelivery, 1);
      await h.hub.idle();
      const attempts = sub.requests.filter(isDelivery);
      expect(attempts).toHaveLength(3);
      expect(await h.stored()).toEqual([]);
      const failed = h.logs.filter((l) => l.msg === "delivery failed; will retry").map((l) => l.failures);
      expect(failed).toEqual([1, 2]);
      expect(h.logs.some((l) => l.msg === "subscription removed after 3 consecutive failed deliveries")).toBe(true);
    });

    it("logs a database outage once per reason, not once per worker per second", { timeout: 60_000 }, async () => {
      const [h] = (await instances(1)) as [Harness];
      const server = await pgServer();
      await server.pause();
      try {
        // Every one of the HUB_CONCURRENCY (16) workers polls each second and fails.
        await new Promise((r) => setTimeout(r, 4000));
      } finally {
        await server.resume();
      }
      const errors = h.logs.filter((l) => l.msg === "job queue error");
      expect(errors.length).toBeGreaterThan(0);
      // Each reason once (a paused server fails polls in a few ways, more of them on a busy
      // machine), against the 16 workers' 64 failed polls of those 4 s.
      expect(new Set(errors.map((l) => l.err)).size).toBe(errors.length);
      expect(errors.length).toBeLessThan(16);
    });
  });
}, ["postgres"]);

describeWithPackage(POSTGRES_UNAVAILABLE, "listeners of the build broadcast", () => {
  it("hear again after the database was down, and call back once on reconnecting", { timeout: 120_000 }, async () => {
    // A server of its own: this test stops it.
    const server = await startPgServer();
    const url = await createDatabase(server);
    const pool = createPool(url, silent);
    await migrate(pool, silent);
    const queue = await openPublishQueue({ url, log: silent, superviseSeconds: 10 });
    let heard = 0;
    try {
      const listener = await listenForBuilds(queue.db, silent, () => heard++);
      await until(() => heard >= 1);
      await server.pause();
      const before = heard;
      await server.resume();
      // Nothing was announced: the call comes from the reconnection alone.
      await until(() => heard > before, 60_000);
      const reconnected = heard;
      await recordLiveBuild(pool, "build-after-outage");
      await until(() => heard > reconnected);
      await listener.close();
    } finally {
      await queue.close();
      await pool.end();
      await server.close();
    }
  });
});
