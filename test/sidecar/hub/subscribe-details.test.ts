import { beforeEach, describe, expect, it } from "vitest";
import { isDenial, isVerification, type Subscriber } from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";
import { subscriptionBench } from "../../helpers/hub-subscriptions.ts";

/**
 * The hub's subscription requests in W3C WebSub's details (the callback's query kept byte for byte,
 * a subscription keyed by its normalised callback, unknown parameters ignored) and when it denies
 * one, in each store.
 */

forEachHubStore(() => {
  const bench = subscriptionBench();
  const { extra, form, holdVerifications, storeDirectly, subscribed } = bench;
  let h: Harness;
  let sub: Subscriber;

  beforeEach(() => {
    ({ h, sub } = bench);
  });

  describe("W3C details", () => {
    it("appends hub.* to the callback's own query string, byte for byte", async () => {
      await subscribed(sub.callback("/cb?user=a%20b&list=x,y"));
      const raw = sub.requests[0]?.rawUrl ?? "";
      expect(raw.startsWith("/cb?user=a%20b&list=x,y&hub.mode=subscribe&")).toBe(true);
      expect(sub.requests[0]?.query.get("user")).toBe("a b");
      expect((await h.stored())[0]?.callback).toBe(sub.callback("/cb?user=a%20b&list=x,y"));
    });

    it("keeps the callback's query byte for byte, characters a URL parser would encode included", async () => {
      const callback = sub.callback("/okq1?name='x'&v=a%20b&w=%7e");
      await subscribed(callback);
      expect(sub.requests[0]?.rawUrl.startsWith("/okq1?name='x'&v=a%20b&w=%7e&hub.mode=subscribe&")).toBe(true);
      // Keyed with the unreserved character decoded (W3C §5.1.1), called as sent (§5.3).
      expect(await h.stored()).toMatchObject([
        { callback: sub.callback("/okq1?name='x'&v=a%20b&w=~"), givenCallback: callback },
      ]);
    });

    it("keys a subscription by its callback's normalised origin and decoded unreserved characters, calling it as sent", async () => {
      const { port } = new URL(sub.origin);
      await subscribed(`HTTPS://127.0.0.1:${port}/cb?a=%7e`, { "hub.secret": "first" });
      // The same origin spelled another way, or %7e spelled ~ (W3C WebSub §5.1.1: hubs MUST decode
      // non-reserved characters), renews that subscription; another byte (%27 against ') is another one.
      await subscribed(`https://127.0.0.1:${port}/cb?a=%7e`, { "hub.secret": "second" });
      await subscribed(`https://127.0.0.1:${port}/c%62?a=~`, { "hub.secret": "third" });
      await subscribed(`https://127.0.0.1:${port}/cb?a=~&q=%27`);
      const sent = ["/cb?a=%7e", "/cb?a=%7e", "/c%62?a=~", "/cb?a=~&q=%27"];
      expect(sub.requests.map((r) => r.rawUrl.split("&hub.")[0])).toEqual(sent);
      const rows = (await h.stored()).map((r) => [r.callback, r.givenCallback, r.secret]);
      expect(rows.sort()).toEqual([
        [sub.callback("/cb?a=~&q=%27"), sub.callback("/cb?a=~&q=%27"), null],
        [sub.callback("/cb?a=~"), sub.callback("/c%62?a=~"), "third"],
      ]);
      // Notifications go to the callback as the last verified request spelled it.
      await h.writeTopic(TOPICS.atom, "<feed>new</feed>");
      await h.hub.publish([TOPICS.atom]);
      await h.hub.idle();
      const posts = sub.requests.filter((r) => r.method === "POST").map((r) => r.rawUrl);
      expect(posts.sort()).toEqual(["/c%62?a=~", "/cb?a=~&q=%27"]);
    });

    it("counts escapes that differ only in the case of their hex digits as one callback (RFC 3986 §6.2.2.1)", async () => {
      await subscribed(sub.callback("/cb?next=%2fa%3ab"), { "hub.secret": "first" });
      await subscribed(sub.callback("/cb?next=%2Fa%3Ab"), { "hub.secret": "second" });
      const rows = (await h.stored()).map((r) => [r.callback, r.givenCallback, r.secret]);
      expect(rows).toEqual([[sub.callback("/cb?next=%2Fa%3Ab"), sub.callback("/cb?next=%2Fa%3Ab"), "second"]]);
    });

    it("renews a subscription stored with unreserved characters decoded but a lower-case escape kept", async () => {
      const given = sub.callback("/%7euser/cb?x=%3a");
      // Keyed as the version before hex digits were put in upper case stored it.
      const earlier = sub.callback("/~user/cb?x=%3a");
      const stored = {
        topic: TOPICS.atom,
        callback: earlier,
        callbackHost: "127.0.0.1",
        secret: "old",
        expiresAt: h.clock.now() + 3_600_000,
      };
      await storeDirectly(h, { ...stored, leaseSeconds: 3600, deliveredHash: null });
      await subscribed(given, { "hub.secret": "renewed" });
      expect((await h.stored()).map((r) => [r.callback, r.secret])).toEqual([
        [sub.callback("/~user/cb?x=%3A"), "renewed"],
      ]);
    });

    it("renews or ends a subscription an earlier version stored under its callback as sent", async () => {
      const given = sub.callback("/old?a=%7e");
      const expiresAt = h.clock.now() + 3_600_000;
      // Keyed by the callback as sent, with no separate spelling: as stored before keys were decoded.
      const legacy = { topic: TOPICS.atom, callback: given, callbackHost: "127.0.0.1", secret: "old", expiresAt };
      const rows = async () => (await h.stored()).map((r) => [r.callback, r.givenCallback, r.secret, r.deliveredHash]);
      await storeDirectly(h, { ...legacy, leaseSeconds: 3600, deliveredHash: null });
      expect((await h.post(form("unsubscribe", given))).status).toBe(202);
      await h.hub.idle();
      expect(await rows()).toEqual([]);
      // A renewal moves it to the key, owed what it was owed; a second one, subscribed meanwhile
      // under another spelling, is the same subscription and merges into it.
      await storeDirectly(h, { ...legacy, leaseSeconds: 3600, deliveredHash: "owed" });
      await subscribed(given, { "hub.secret": "renewed" });
      expect(await rows()).toEqual([[sub.callback("/old?a=~"), given, "renewed", "owed"]]);
      await storeDirectly(h, { ...legacy, leaseSeconds: 3600, deliveredHash: null });
      await subscribed(given, { "hub.secret": "again" });
      expect(await rows()).toEqual([[sub.callback("/old?a=~"), given, "again", "owed"]]);
    });

    it.each([
      ["upper-case scheme and host", "HTTPS://REVIEWS.example.test/feed.xml"],
      ["a dot segment", "https://reviews.example.test/./feed.xml"],
      // W3C WebSub §5.1.1: hubs MUST decode non-reserved characters (RFC 3986 §2.3) of the topic URL.
      ["percent-encoded unreserved characters", "https://reviews.example.test/%66eed%2Exml"],
    ])("echoes hub.topic as the subscriber sent it (%s), subscribing to the canonical topic", async (_how, given) => {
      await subscribed(sub.callback(), { "hub.topic": given });
      expect(sub.requests[0]?.query.get("hub.topic")).toBe(given);
      expect(await h.stored()).toMatchObject([{ topic: TOPICS.atom, callback: sub.callback() }]);
    });

    it("ignores parameters it does not know", async () => {
      await subscribed(sub.callback(), { "hub.unknown": "1", utm_source: "feedreader" });
      expect(await h.stored()).toHaveLength(1);
    });
  });

  describe("denied", () => {
    it("sends hub.mode=denied with a reason when the subscription limit is reached", async () => {
      const small = await startHarness({ env: { HUB_MAX_SUBSCRIPTIONS: "1" } });
      extra.push(small);
      await subscribed(sub.callback("/first"), {}, small);
      await subscribed(sub.callback("/second"), {}, small);
      const [denial] = await sub.waitFor(isDenial);
      expect(denial?.rawUrl.startsWith("/second?")).toBe(true);
      expect(denial?.query.get("hub.topic")).toBe(TOPICS.atom);
      expect(denial?.query.get("hub.reason")).toBe("the hub has reached its limit of 1 subscriptions");
      // The denied request was never verified, and the first subscription is untouched.
      expect(sub.requests.filter(isVerification())).toHaveLength(1);
      expect((await small.stored()).map((s) => s.callback)).toEqual([sub.callback("/first")]);
    });

    it("echoes hub.topic as the subscriber sent it in the denial", async () => {
      const small = await startHarness({ env: { HUB_MAX_SUBSCRIPTIONS: "1" } });
      extra.push(small);
      await subscribed(sub.callback("/first"), {}, small);
      await subscribed(sub.callback("/second"), { "hub.topic": "HTTPS://reviews.example.test/./feed.xml" }, small);
      const [denial] = await sub.waitFor(isDenial);
      expect(denial?.query.get("hub.topic")).toBe("HTTPS://reviews.example.test/./feed.xml");
    });

    it("caps subscriptions per callback host but still renews an existing one", async () => {
      const small = await startHarness({ env: { HUB_MAX_PER_HOST: "1" } });
      extra.push(small);
      await subscribed(sub.callback("/first"), {}, small);
      await subscribed(sub.callback("/second"), {}, small);
      await subscribed(sub.callback("/first"), { "hub.secret": "renewed" }, small);
      const [denial] = await sub.waitFor(isDenial);
      expect(denial?.query.get("hub.reason")).toBe("the hub allows at most 1 subscriptions per callback host");
      expect(await small.stored()).toMatchObject([{ callback: sub.callback("/first"), secret: "renewed" }]);
    });

    it("holds at most HUB_MAX_PER_HOST requests of one callback host awaiting verification, then answers 503", async () => {
      const small = await startHarness({ env: { HUB_MAX_PER_HOST: "2" } });
      extra.push(small);
      const release = holdVerifications();
      // A host whose callbacks never answer would otherwise hold every pending slot of the hub.
      for (const p of ["/a", "/b"]) expect((await small.post(form("subscribe", sub.callback(p)))).status).toBe(202);
      const refused = await small.post(form("subscribe", sub.callback("/c")));
      expect(refused.status).toBe(503);
      // A slot frees once a pending request's verification ends: the challenge and a denial notice,
      // each within HUB_DELIVERY_TIMEOUT_MS (5 s here), so the wait is known (RFC 9110 §10.2.3).
      expect(refused.headers.get("retry-after")).toBe("10");
      expect(await refused.text()).toContain("too many verifications are pending for callbacks on");
      expect(await small.pending()).toHaveLength(2);
      release();
      await small.hub.idle();
      expect((await small.post(form("subscribe", sub.callback("/c")))).status).toBe(202);
    });
  });
});
