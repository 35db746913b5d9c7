import { afterEach, describe, expect, inject, it } from "vitest";
import { cooperative, isDelivery, type SeenRequest, startSubscriber } from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { startHarness, TOPICS } from "../../helpers/hub-harness.ts";

/** HUB_CONCURRENCY bounds every outbound request of one instance (docs/websub.md), whichever store. */

const tls = inject("testTls");
const open: { close(): Promise<unknown> }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

forEachHubStore(() => {
  describe("HUB_CONCURRENCY", () => {
    it("bounds deliveries and verifications in flight together", { timeout: 60_000 }, async () => {
      const h = await startHarness({ env: { HUB_CONCURRENCY: "2" } });
      open.push(h);
      let inFlight = 0;
      let most = 0;
      // Deliveries, and the verifications of the callbacks under /late, each take half a second.
      const slow = (req: SeenRequest) => isDelivery(req) || req.rawUrl.startsWith("/late");
      const sub = await startSubscriber(tls.trusted, async (req) => {
        if (!slow(req)) return cooperative(req);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 500));
        inFlight--;
        return cooperative(req);
      });
      open.push(sub);
      const subscribe = async (path: string) => {
        const form = { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback(path) };
        expect((await h.post(form)).status).toBe(202);
      };
      await h.writeTopic(TOPICS.atom, "<feed>v1</feed>");
      await h.hub.publish();
      for (let i = 0; i < 6; i++) await subscribe(`/s${i}`);
      await h.hub.idle();
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.hub.publish();
      // New requests while the fan-out runs: their verifications wait for a slot too.
      await sub.waitFor(isDelivery);
      for (let i = 0; i < 4; i++) await subscribe(`/late${i}`);
      await sub.waitFor(isDelivery, 6);
      await h.hub.idle();
      expect(sub.requests.filter((r) => r.rawUrl.startsWith("/late"))).toHaveLength(4);
      expect(most).toBe(2);
    });
  });
});
