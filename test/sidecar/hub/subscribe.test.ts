import { createServer, type Server } from "node:net";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { isVerification, type Responder, type Subscriber, startSubscriber } from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { type Harness, TOPICS } from "../../helpers/hub-harness.ts";
import { subscriptionBench } from "../../helpers/hub-subscriptions.ts";

const tls = inject("testTls");

forEachHubStore(() => {
  const bench = subscriptionBench();
  const { extra, form, holdVerifications, subscribed } = bench;
  let h: Harness;
  let sub: Subscriber;

  beforeEach(() => {
    ({ h, sub } = bench);
  });

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

    it("starts the lease when the verification request is made, not when the subscriber answers (W3C §5.3)", async () => {
      const release = holdVerifications();
      expect((await h.post(form("subscribe", sub.callback(), { "hub.lease_seconds": "7200" }))).status).toBe(202);
      await sub.waitFor(isVerification("subscribe"));
      const asked = h.clock.now();
      // The subscriber takes its time to answer; the lease it was told of runs from the request.
      h.clock.advance(3_000);
      release();
      await h.hub.idle();
      expect((await h.stored())[0]?.expiresAt).toBe(asked + 7_200_000);
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

    it("ignores hub.lease_seconds, as W3C WebSub §5.1 says hubs MUST, whatever its value", async () => {
      await subscribed(sub.callback());
      const unsubscribe = new URLSearchParams(form("unsubscribe", sub.callback())).toString();
      const undecodable = await h.post({}, undefined, `${unsubscribe}&hub.lease_seconds=%FF`);
      expect(undecodable.status).toBe(202);
      for (const lease of ["forever", ["60", "120"]]) {
        const res = await h.post({ ...form("unsubscribe", sub.callback()), "hub.lease_seconds": lease });
        expect([res.status, await res.text()]).toEqual([
          202,
          "Accepted: verification of intent for unsubscribe will follow.\n",
        ]);
      }
      await h.hub.idle();
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
});
