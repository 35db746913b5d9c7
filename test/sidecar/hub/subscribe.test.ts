import { createServer, type Server } from "node:net";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { PgHubStore } from "../../../sidecar/hub/pg-store.ts";
import { SqliteHubDb, STORE_FILE } from "../../../sidecar/hub/sqlite-db.ts";
import type { SubscriptionInput } from "../../../sidecar/hub/store.ts";
import {
  cooperative,
  isDenial,
  isVerification,
  type Responder,
  type Subscriber,
  startSubscriber,
} from "../../helpers/https-subscriber.ts";
import { currentBackend, forEachHubStore, openHubDatabase } from "../../helpers/hub-backends.ts";
import { type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";

const tls = inject("testTls");

forEachHubStore(() => {
  let h: Harness;
  let sub: Subscriber;
  const extra: { close(): Promise<unknown> }[] = [];

  beforeEach(async () => {
    h = await startHarness();
    sub = await startSubscriber(tls.trusted);
  });

  afterEach(async () => {
    await h.close();
    await sub.close();
    await Promise.all(extra.splice(0).map((x) => x.close()));
  });

  function form(mode: string, callback: string, more: Record<string, string> = {}) {
    return { "hub.mode": mode, "hub.topic": TOPICS.atom, "hub.callback": callback, ...more };
  }

  /** The subscriber answers every request only once the returned function is called. */
  function holdVerifications(): () => void {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    sub.respond = async (req) => {
      await held;
      return cooperative(req);
    };
    return release;
  }

  /** Writes a subscription row as it is given, through a connection of its own. */
  async function storeDirectly(harness: Harness, row: SubscriptionInput) {
    const shared = await openHubDatabase(currentBackend(), harness.dataDir, pino({ level: "silent" }));
    if (shared) return new PgHubStore(shared.database.pool).upsert(row, 0).finally(() => shared.close());
    const db = new SqliteHubDb(path.join(harness.dataDir, STORE_FILE));
    try {
      db.upsert(row, 0);
    } finally {
      db.close();
    }
  }

  async function subscribed(callback: string, more: Record<string, string> = {}, harness = h) {
    const res = await harness.post(form("subscribe", callback, more));
    expect(res.status).toBe(202);
    await harness.hub.idle();
  }

  describe("subscribe → pending → active", () => {
    it("answers 202 before verifying, then activates once the challenge is echoed", async () => {
      const release = holdVerifications();
      const res = await h.post(form("subscribe", sub.callback()));
      expect(res.status).toBe(202);
      const [verification] = await sub.waitFor(isVerification("subscribe"));
      // The subscriber holds the verification: the request is pending, not yet a subscription.
      expect(await h.stored()).toEqual([]);
      expect(await h.pending()).toMatchObject([{ mode: "subscribe", topic: TOPICS.atom, callback: sub.callback() }]);
      release();
      await h.hub.idle();
      const challenge = verification?.query.get("hub.challenge") ?? "";
      expect(Buffer.from(challenge, "base64url").length * 8).toBeGreaterThanOrEqual(128);
      expect(verification?.query.get("hub.topic")).toBe(TOPICS.atom);
      expect(verification?.query.get("hub.lease_seconds")).toBe("864000");
      expect(await h.pending()).toEqual([]);
      expect(await h.stored()).toMatchObject([
        { topic: TOPICS.atom, callback: sub.callback(), state: "active", failures: 0 },
      ]);
      expect((await h.stored())[0]?.expiresAt).toBe(h.clock.now() + 864_000_000);
    });

    it("never reuses a challenge", async () => {
      await subscribed(sub.callback("/a"));
      await subscribed(sub.callback("/b"));
      const challenges = sub.requests.map((r) => r.query.get("hub.challenge"));
      expect(challenges).toHaveLength(2);
      expect(new Set(challenges).size).toBe(2);
    });

    it.each([
      ["10", "3600"],
      ["99999999", "2592000"],
      ["86400", "86400"],
    ])("clamps hub.lease_seconds=%s to %s", async (asked, granted) => {
      await subscribed(sub.callback(), { "hub.lease_seconds": asked });
      expect(sub.requests[0]?.query.get("hub.lease_seconds")).toBe(granted);
      expect((await h.stored())[0]?.leaseSeconds).toBe(Number(granted));
    });
  });

  describe("plain HTTP → rejected, never contacted", () => {
    it("refuses an http callback synchronously without state or any connection", async () => {
      let connections = 0;
      const probe: Server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      extra.push({ close: () => new Promise((resolve) => probe.close(resolve)) });
      const port = (probe.address() as { port: number }).port;
      const res = await h.post(form("subscribe", `http://127.0.0.1:${port}/callback`));
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toContain("hub.callback: must be an https URL");
      await h.hub.idle();
      expect(connections).toBe(0);
      expect(await h.stored()).toEqual([]);
      expect(await h.pending()).toEqual([]);
    });
  });

  describe("wrong body or non-2xx → rejected", () => {
    const cases: [string, Responder][] = [
      ["a body that is not the challenge", () => ({ status: 200, body: "yes" })],
      ["the challenge with a trailing newline", (r) => ({ status: 200, body: `${r.query.get("hub.challenge")}\n` })],
      ["404", (r) => ({ status: 404, body: r.query.get("hub.challenge") ?? "" })],
      ["500", (r) => ({ status: 500, body: r.query.get("hub.challenge") ?? "" })],
    ];
    it.each(cases)("rejects %s", async (_name, respond) => {
      sub.respond = respond;
      await subscribed(sub.callback());
      expect(sub.requests).toHaveLength(1);
      expect(await h.stored()).toEqual([]);
      expect(await h.pending()).toEqual([]);
      expect(h.logs.some((l) => l.msg === "verification of intent failed; request rejected")).toBe(true);
    });

    it("rejects a redirect without following it", async () => {
      const target = await startSubscriber(tls.trusted);
      extra.push(target);
      sub.respond = () => ({ status: 302, headers: { location: target.callback() } });
      await subscribed(sub.callback());
      expect(target.requests).toEqual([]);
      expect(await h.stored()).toEqual([]);
      expect(h.logs.find((l) => l.msg.startsWith("verification"))?.reason).toBe(
        "callback answered 302; redirects are not followed",
      );
    });

    it("rejects a callback whose certificate the hub does not trust", async () => {
      const untrusted = await startSubscriber(tls.untrusted);
      extra.push(untrusted);
      await subscribed(untrusted.callback());
      expect(untrusted.requests).toEqual([]);
      expect(await h.stored()).toEqual([]);
      expect(String(h.logs.find((l) => l.msg.startsWith("verification"))?.reason)).toMatch(/certificate/i);
    });
  });

  describe("re-subscription", () => {
    it("renews the lease and replaces the secret without creating a duplicate", async () => {
      await subscribed(sub.callback(), { "hub.secret": "first", "hub.lease_seconds": "3600" });
      const [first] = await h.stored();
      h.clock.advance(60_000);
      await subscribed(sub.callback(), { "hub.secret": "second", "hub.lease_seconds": "7200" });
      const rows = await h.stored();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: first?.id, secret: "second", leaseSeconds: 7200 });
      expect(rows[0]?.expiresAt).toBe(h.clock.now() + 7_200_000);
    });

    it("leaves the existing subscription exactly as it was when the renewal is rejected", async () => {
      await subscribed(sub.callback(), { "hub.secret": "kept" });
      const before = await h.stored();
      sub.respond = () => ({ status: 404 });
      h.clock.advance(60_000);
      await subscribed(sub.callback(), { "hub.secret": "ignored", "hub.lease_seconds": "3600" });
      expect(sub.requests).toHaveLength(2);
      expect(await h.stored()).toEqual(before);
    });
  });

  describe("unsubscribe → handshake → removed", () => {
    it("removes the subscription once the subscriber confirms", async () => {
      await subscribed(sub.callback());
      const res = await h.post(form("unsubscribe", sub.callback()));
      expect(res.status).toBe(202);
      await h.hub.idle();
      const [verification] = await sub.waitFor(isVerification("unsubscribe"));
      expect(verification?.query.has("hub.lease_seconds")).toBe(false);
      expect(await h.stored()).toEqual([]);
    });

    it("keeps the subscription when the unsubscribe is not confirmed", async () => {
      await subscribed(sub.callback());
      const before = await h.stored();
      sub.respond = () => ({ status: 200, body: "no" });
      await h.post(form("unsubscribe", sub.callback()));
      await h.hub.idle();
      expect(await h.stored()).toEqual(before);
    });
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
