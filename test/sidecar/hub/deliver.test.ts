import { createHmac, timingSafeEqual } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import type { PublishResult } from "../../../sidecar/hub/hub.ts";
import { MANIFEST_FILE } from "../../../src/http-headers/manifest.ts";
import { cooperative, isDelivery, type Subscriber, startSubscriber } from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";

const tls = inject("testTls");
const BASE_MS = 1000;

forEachHubStore((backend) => {
  let h: Harness;
  let sub: Subscriber;
  const extra: { close(): Promise<unknown> }[] = [];
  const published: PublishResult[] = [];

  beforeEach(async () => {
    published.length = 0;
    h = await startHarness({ onPublish: (r) => void published.push(r) });
    sub = await startSubscriber(tls.trusted);
    await h.writeTopic(TOPICS.atom, "<feed>v1</feed>");
    await h.writeTopic(TOPICS.json, '{"version":"v1"}');
    await h.writeTopic(TOPICS.reviews, '{"reviews":[]}');
    await h.hub.publish();
  });

  afterEach(async () => {
    await h.close();
    await sub.close();
    await Promise.all(extra.splice(0).map((x) => x.close()));
  });

  async function subscribe(callback: string, topic: string = TOPICS.atom, more: Record<string, string> = {}) {
    const res = await h.post({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": callback, ...more });
    expect(res.status).toBe(202);
    await h.hub.idle();
    // Requests go to the callback as sent (`givenCallback`); `callback` is its key.
    expect((await h.stored()).some((s) => (s.givenCallback ?? s.callback) === callback && s.topic === topic)).toBe(
      true,
    );
  }

  async function publish(topic: string, content: string) {
    await h.writeTopic(topic, content);
    await h.hub.publish([topic]);
    await h.hub.idle();
  }

  const deliveries = () => sub.requests.filter(isDelivery);

  describe("notifications", () => {
    it("POSTs the full content with the served Content-Type, the Link header, a verifiable signature and the hub's User-Agent", async () => {
      await subscribe(sub.callback("/atom"), TOPICS.atom, { "hub.secret": "s3cret" });
      await subscribe(sub.callback("/json"), TOPICS.json);
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.writeTopic(TOPICS.json, '{"version":"v2"}');
      await h.hub.publish();
      await h.hub.idle();

      const atom = deliveries().find((r) => r.rawUrl === "/atom");
      expect(atom?.body.toString()).toBe("<feed>v2</feed>");
      expect(atom?.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
      expect(atom?.headers.link).toBe(
        '<https://reviews.example.test/api/websub/hub>; rel="hub", <https://reviews.example.test/feed.xml>; rel="self"',
      );
      const expected = createHmac("sha256", "s3cret")
        .update(atom?.body ?? "")
        .digest();
      const header = String(atom?.headers["x-hub-signature"]);
      expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(timingSafeEqual(Buffer.from(header.slice(7), "hex"), expected)).toBe(true);

      const json = deliveries().find((r) => r.rawUrl === "/json");
      expect(json?.body.toString()).toBe('{"version":"v2"}');
      expect(json?.headers["content-type"]).toBe("application/json");
      expect(json?.headers["x-hub-signature"]).toBeUndefined();
      expect(deliveries()).toHaveLength(2);
      expect((await h.stored()).every((s) => s.state === "active" && s.failures === 0)).toBe(true);
      // Verification GETs and notifications alike name the service and where it lives.
      expect(sub.requests.some((r) => r.method === "GET")).toBe(true);
      for (const r of sub.requests) {
        expect(r.headers["user-agent"]).toBe("public-reviews-websub-hub/1.0 (+https://reviews.example.test/)");
      }
    });

    it("POSTs to the callback's path and query byte for byte, characters a URL parser would encode included", async () => {
      const callback = sub.callback("/okq1?name='x'&v=a%20b&w=%7e");
      await subscribe(callback);
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries().map((r) => r.rawUrl)).toEqual(["/okq1?name='x'&v=a%20b&w=%7e"]);
    });

    it("signs with the replaced secret after a re-subscription", async () => {
      await subscribe(sub.callback(), TOPICS.atom, { "hub.secret": "old" });
      await subscribe(sub.callback(), TOPICS.atom, { "hub.secret": "new" });
      await publish(TOPICS.atom, "<feed>v2</feed>");
      const [d] = deliveries();
      const expected = `sha256=${createHmac("sha256", "new").update("<feed>v2</feed>").digest("hex")}`;
      expect(d?.headers["x-hub-signature"]).toBe(expected);
    });

    it("sends nothing for an unchanged publish, and nothing to a new subscriber for content it already had", async () => {
      await subscribe(sub.callback());
      await h.hub.publish();
      await h.hub.idle();
      const res = await h.post({ "hub.mode": "publish", "hub.url": TOPICS.atom });
      expect(res.status).toBe(202);
      await h.hub.idle();
      expect(deliveries()).toEqual([]);
      expect(published.at(-1)?.topics).toEqual([{ topic: TOPICS.atom, owed: 0 }]);
    });

    it("distributes a topic named by a publish ping to that topic's subscribers only", async () => {
      await subscribe(sub.callback("/atom"), TOPICS.atom);
      await subscribe(sub.callback("/reviews"), TOPICS.reviews);
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.writeTopic(TOPICS.reviews, '{"reviews":[1]}');
      const res = await h.post({ "hub.mode": "publish", "hub.url": [TOPICS.reviews] });
      expect(res.status).toBe(202);
      await h.hub.idle();
      expect(deliveries().map((r) => [r.rawUrl, r.body.toString()])).toEqual([["/reviews", '{"reviews":[1]}']]);
      expect(published.at(-1)?.topics).toEqual([{ topic: TOPICS.reviews, owed: 1 }]);
    });

    it("sends content published during an in-flight delivery right after it, once", async () => {
      await subscribe(sub.callback());
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      sub.respond = async (r) => {
        if (r.method !== "POST" || r.body.toString() !== "<feed>v2</feed>") return cooperative(r);
        await held;
        return { status: 204 };
      };
      await h.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await h.hub.publish([TOPICS.atom]);
      await sub.waitFor(isDelivery);
      await h.writeTopic(TOPICS.atom, "<feed>v3</feed>");
      await h.hub.publish([TOPICS.atom]);
      release();
      await h.hub.idle();
      expect(deliveries().map((r) => r.body.toString())).toEqual(["<feed>v2</feed>", "<feed>v3</feed>"]);
      expect(await h.stored()).toMatchObject([{ state: "active", failures: 0 }]);
    });

    it("stops notifying after a confirmed unsubscribe", async () => {
      await subscribe(sub.callback());
      await h.post({ "hub.mode": "unsubscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() });
      await h.hub.idle();
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries()).toEqual([]);
    });
  });

  describe("unreadable builds", () => {
    it("skips a topic whose build cannot be read and distributes it once it can", async () => {
      await subscribe(sub.callback());
      await writeFile(path.join(h.distDir, MANIFEST_FILE), "{ half-written");
      const result = await h.hub.publish([TOPICS.atom]);
      expect(result.topics).toEqual([{ topic: TOPICS.atom, owed: 0, missing: true }]);
      expect(h.logs.some((l) => l.msg === "cannot read topic")).toBe(true);
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries().map((r) => r.body.toString())).toEqual(["<feed>v2</feed>"]);
    });
  });

  // The manual clock drives in-process retries; the queue's own backoff is tested in queue.test.ts.
  describe.runIf(backend === "sqlite")("failures and retries", () => {
    it("retries with exponential backoff and removes the subscription after 3 consecutive failures", async () => {
      await subscribe(sub.callback());
      sub.respond = (r) => (r.method === "POST" ? { status: 500 } : cooperative(r));
      const t0 = h.clock.now();
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries()).toHaveLength(1);
      expect(await h.stored()).toMatchObject([{ state: "retrying", failures: 1, nextAttemptAt: t0 + BASE_MS }]);

      h.clock.advance(BASE_MS - 1);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(1);
      h.clock.advance(1);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(2);
      expect(await h.stored()).toMatchObject([{ state: "retrying", failures: 2, nextAttemptAt: t0 + 3 * BASE_MS }]);

      h.clock.advance(2 * BASE_MS - 1);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(2);
      h.clock.advance(1);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(3);
      expect(await h.stored()).toEqual([]);
      const removal = h.logs.find((l) => l.msg === "subscription removed after 3 consecutive failed deliveries");
      expect(removal).toMatchObject({ topic: TOPICS.atom, failures: 3, reason: "callback answered 500" });
      h.clock.advance(3_600_000);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(3);
    });

    it("resets the failure count after a success", async () => {
      await subscribe(sub.callback());
      sub.respond = (r) => (r.method === "POST" ? { status: 503 } : cooperative(r));
      await publish(TOPICS.atom, "<feed>v2</feed>");
      h.clock.advance(BASE_MS);
      await h.hub.idle();
      expect((await h.stored())[0]?.failures).toBe(2);
      sub.respond = cooperative;
      h.clock.advance(2 * BASE_MS);
      await h.hub.idle();
      expect(await h.stored()).toMatchObject([{ state: "active", failures: 0, nextAttemptAt: null }]);
      expect(deliveries()).toHaveLength(3);
    });

    it("removes the subscription at once on 410 Gone", async () => {
      await subscribe(sub.callback());
      sub.respond = (r) => (r.method === "POST" ? { status: 410 } : cooperative(r));
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries()).toHaveLength(1);
      expect(await h.stored()).toEqual([]);
      h.clock.advance(3_600_000);
      await h.hub.idle();
      expect(deliveries()).toHaveLength(1);
    });

    it("counts a redirect as a failure and does not follow it", async () => {
      const target = await startSubscriber(tls.trusted);
      extra.push(target);
      await subscribe(sub.callback());
      sub.respond = (r) =>
        r.method === "POST" ? { status: 307, headers: { location: target.callback() } } : cooperative(r);
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(target.requests).toEqual([]);
      expect(await h.stored()).toMatchObject([{ failures: 1 }]);
    });

    it("counts a timeout as a failure", async () => {
      const slow = await startHarness({ env: { HUB_DELIVERY_TIMEOUT_MS: "200" }, distDir: h.distDir });
      extra.push(slow);
      const res = await slow.post({
        "hub.mode": "subscribe",
        "hub.topic": TOPICS.atom,
        "hub.callback": sub.callback(),
      });
      expect(res.status).toBe(202);
      await slow.hub.idle();
      sub.respond = (r) => (r.method === "POST" ? new Promise(() => {}) : cooperative(r));
      await slow.writeTopic(TOPICS.atom, "<feed>v2</feed>");
      await slow.hub.publish();
      await slow.hub.idle();
      expect(await slow.stored()).toMatchObject([{ state: "retrying", failures: 1 }]);
      expect(String(slow.logs.find((l) => l.msg === "delivery failed; will retry")?.reason)).toMatch(/timeout|abort/i);
    });

    it("delivers the newest content when a retry is pending, not a backlog", async () => {
      await subscribe(sub.callback());
      sub.respond = (r) => (r.method === "POST" ? { status: 500 } : cooperative(r));
      await publish(TOPICS.atom, "<feed>v2</feed>");
      sub.respond = cooperative;
      await publish(TOPICS.atom, "<feed>v3</feed>");
      // The pending retry keeps its schedule; the new content does not jump the backoff.
      expect(deliveries()).toHaveLength(1);
      h.clock.advance(BASE_MS);
      await h.hub.idle();
      expect(deliveries().map((r) => r.body.toString())).toEqual(["<feed>v2</feed>", "<feed>v3</feed>"]);
      expect(await h.stored()).toMatchObject([{ state: "active", failures: 0 }]);
    });
  });

  describe("leases", () => {
    it("removes an expired subscription when its lease ends and never notifies it", async () => {
      await subscribe(sub.callback(), TOPICS.atom, { "hub.lease_seconds": "3600" });
      h.clock.advance(3_600_000 - 1);
      await h.hub.idle();
      expect(await h.stored()).toHaveLength(1);
      h.clock.advance(1);
      await h.hub.idle();
      expect(await h.stored()).toEqual([]);
      expect(h.logs.some((l) => l.msg === "lease expired; subscription removed")).toBe(true);
      await publish(TOPICS.atom, "<feed>v2</feed>");
      expect(deliveries()).toEqual([]);
    });
  });
});
