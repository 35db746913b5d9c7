import { once } from "node:events";
import { stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STORE_FILE } from "../../../sidecar/hub/sqlite-db.ts";
import { cooperative, isDelivery, isVerification } from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { startHubChild, TOPICS } from "../../helpers/hub-harness.ts";
import { perTestHubs } from "../../helpers/hub-subscriptions.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";

const { harness, subscriber } = perTestHubs();

forEachHubStore((backend) => {
  describe("persistence across restarts", () => {
    it("resumes a delivery owed for content that changed while the hub was down", async () => {
      const sub = await subscriber();
      const first = await harness();
      await first.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      await first.hub.publish();
      await first.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() });
      await first.hub.idle();
      await first.close();

      await first.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      const second = await harness({ dataDir: first.dataDir, distDir: first.distDir });
      await second.hub.idle();
      expect(sub.requests.filter(isDelivery).map((r) => r.body.toString())).toEqual(["<feed>v2</feed>"]);
      expect(await second.stored()).toMatchObject([{ callback: sub.callback(), state: "active", failures: 0 }]);
    });

    it.runIf(backend === "sqlite")("keeps the retry schedule and failure count across a restart", async () => {
      const sub = await subscriber();
      sub.respond = (r) => (r.method === "POST" ? { status: 500 } : cooperative(r));
      const clock = new ManualClock();
      const first = await harness({ clock });
      await first.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      await first.hub.publish();
      await first.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() });
      await first.hub.idle();
      await first.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await first.hub.publish();
      await first.hub.idle();
      await first.close();
      expect(await first.stored()).toMatchObject([
        { state: "retrying", failures: 1, nextAttemptAt: clock.now() + 1000 },
      ]);

      sub.respond = cooperative;
      const second = await harness({ dataDir: first.dataDir, distDir: first.distDir, clock });
      await second.hub.idle();
      // Not yet due: the restart does not jump the backoff.
      expect(sub.requests.filter(isDelivery)).toHaveLength(1);
      clock.advance(1000);
      await second.hub.idle();
      expect(sub.requests.filter(isDelivery)).toHaveLength(2);
      expect(await second.stored()).toMatchObject([{ state: "active", failures: 0 }]);
    });

    it("verifies again, with a new challenge, a request interrupted by shutdown", async () => {
      const sub = await subscriber();
      sub.respond = () => new Promise(() => {});
      const first = await harness();
      await first.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.json, "hub.callback": sub.callback() });
      await sub.waitFor(isVerification());
      await first.close();
      expect(await first.pending()).toHaveLength(1);
      expect(await first.stored()).toEqual([]);

      sub.respond = cooperative;
      const second = await harness({ dataDir: first.dataDir, distDir: first.distDir });
      await second.hub.idle();
      const challenges = sub.requests.map((r) => r.query.get("hub.challenge"));
      expect(challenges).toHaveLength(2);
      expect(challenges[0]).not.toBe(challenges[1]);
      expect(await second.pending()).toEqual([]);
      expect(await second.stored()).toMatchObject([{ topic: TOPICS.json, callback: sub.callback() }]);
    });

    it.runIf(backend === "sqlite")(
      "loses nothing when the process is killed with SIGKILL, and resumes the owed retry",
      async () => {
        const sub = await subscriber();
        const seed = await harness();
        await seed.writeTopic(TOPICS.atom, "<feed>v1</feed>");
        await seed.close();

        const { child, waitLine, publish } = startHubChild({
          dataDir: seed.dataDir,
          distDir: seed.distDir,
          topic: TOPICS.atom,
          callbacks: [sub.callback()],
        });
        await waitLine("subscribed");
        sub.respond = (r) => (r.method === "POST" ? { status: 500 } : cooperative(r));
        await seed.writeTopic(TOPICS.atom, "<feed>v2</feed>");
        publish();
        await waitLine("ready");
        child.kill("SIGKILL");
        await once(child, "exit");
        expect(child.signalCode).toBe("SIGKILL");

        // Committed but never checkpointed: the state lives in the WAL file the killed process left.
        expect((await stat(path.join(seed.dataDir, `${STORE_FILE}-wal`))).size).toBeGreaterThan(0);
        expect(await seed.stored()).toMatchObject([{ callback: sub.callback(), state: "retrying", failures: 1 }]);
        sub.respond = cooperative;
        const clock = new ManualClock(Date.now() + 3_600_000);
        const after = await harness({ dataDir: seed.dataDir, distDir: seed.distDir, clock });
        await after.hub.idle();
        expect(sub.requests.filter(isDelivery).map((r) => r.body.toString())).toEqual([
          "<feed>v2</feed>",
          "<feed>v2</feed>",
        ]);
        expect(await after.stored()).toMatchObject([{ callback: sub.callback(), state: "active", failures: 0 }]);
      },
    );
  });
});
