import { once } from "node:events";
import pino from "pino";
import { afterEach, describe, expect, inject, it } from "vitest";
import {
  cooperative,
  isDelivery,
  isVerification,
  type Reply,
  startSubscriber,
} from "../../helpers/https-subscriber.ts";
import { currentBackend, forEachHubStore, openHubDatabase } from "../../helpers/hub-backends.ts";
import { type Harness, startHarness, startHubChild, TOPICS } from "../../helpers/hub-harness.ts";

/**
 * SIGTERM in the middle of a fan-out: the hub runs in its own process (hub-child.ts) and is
 * stopped as `npm start` stops it while some deliveries are in flight and the rest are queued.
 * Nothing is lost: after a restart on the same store every subscriber gets the new content, and
 * none is counted as failed for the interruption.
 */

const tls = inject("testTls");
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

const SUBSCRIBERS = 12;
/** The child's HUB_CONCURRENCY: this many deliveries are in flight when the signal arrives. */
const IN_FLIGHT = 4;

forEachHubStore(() => {
  describe("SIGTERM during a fan-out", () => {
    it("loses no delivery: the interrupted and the queued ones are made after a restart", async () => {
      const sub = await startSubscriber(tls.trusted);
      open.push(sub);
      // Deliveries hang until released, so the fan-out is caught half-way.
      const held: ((r: Reply) => void)[] = [];
      sub.respond = (r) => (r.method === "POST" ? new Promise<Reply>((resolve) => held.push(resolve)) : cooperative(r));
      const seed: Harness = await startHarness();
      await seed.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      await seed.close();
      const shared = await openHubDatabase(currentBackend(), seed.dataDir, pino({ level: "silent" }));
      await shared?.close();

      const callbacks = Array.from({ length: SUBSCRIBERS }, (_, i) => sub.callback(`/cb/${i}`));
      const { child, waitLine, publish } = startHubChild({
        dataDir: seed.dataDir,
        distDir: seed.distDir,
        topic: TOPICS.atom,
        callbacks,
        databaseUrl: shared?.database.url,
      });
      await waitLine("subscribed");
      expect(sub.requests.filter(isVerification("subscribe"))).toHaveLength(SUBSCRIBERS);

      await seed.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      publish();
      await sub.waitFor(isDelivery, IN_FLIGHT);
      const before = sub.requests.filter(isDelivery).length;
      expect(before).toBeLessThan(SUBSCRIBERS);
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      for (const release of held.splice(0)) release({ status: 204 });

      sub.respond = cooperative;
      const after = await startHarness({ dataDir: seed.dataDir, distDir: seed.distDir });
      open.push(after);
      await after.hub.idle();
      await sub.waitFor(isDelivery, before + SUBSCRIBERS);
      const delivered = new Set(
        sub.requests.filter((r) => isDelivery(r) && r.body.toString() === "<feed>v2</feed>").map((r) => r.rawUrl),
      );
      expect([...delivered].sort()).toEqual(callbacks.map((c) => new URL(c).pathname).sort());
      const stored = await after.stored();
      expect(stored).toHaveLength(SUBSCRIBERS);
      for (const s of stored) expect(s, s.callback).toMatchObject({ state: "active", failures: 0 });
    }, 120_000);
  });
});
