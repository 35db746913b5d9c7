import { describe, expect, it } from "vitest";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { startHarness } from "../../helpers/hub-harness.ts";
import { subscriptionBench } from "../../helpers/hub-subscriptions.ts";

// HUB_MAX_PER_HOST counts a host's subscriptions and pending requests whatever the spelling of its
// name: an IPv4-mapped IPv6 literal is the IPv4 address it maps, `name.` (an absolute domain name)
// is `name`. Counted apart, each spelling had a limit of its own.
forEachHubStore(() => {
  const bench = subscriptionBench();
  const { extra, form, holdVerifications, subscribed } = bench;

  /** The subscriber's callback on `path`, its host written `host`. */
  const on = (host: string, path: string) => bench.sub.callback(path).replace("127.0.0.1", host);

  describe("another spelling of a callback host", () => {
    it.each([
      ["127.0.0.1", "[::ffff:127.0.0.1]"],
      ["localhost", "localhost."],
    ])("shares the host's pending-verification limit: %s, then %s", async (first, second) => {
      const small = await startHarness({ env: { HUB_MAX_PER_HOST: "1" } });
      extra.push(small);
      const release = holdVerifications();
      expect((await small.post(form("subscribe", on(first, "/a")))).status).toBe(202);
      const refused = await small.post(form("subscribe", on(second, "/b")));
      expect([refused.status, (await refused.text()).trim()]).toEqual([
        503,
        `too many verifications are pending for callbacks on ${first}; try again later`,
      ]);
      release();
      await small.hub.idle();
    });

    it("shares the host's subscription limit", async () => {
      const small = await startHarness({ env: { HUB_MAX_PER_HOST: "1" } });
      extra.push(small);
      await subscribed(on("127.0.0.1", "/a"), {}, small);
      await subscribed(on("[::ffff:127.0.0.1]", "/b"), {}, small);
      expect((await small.stored()).map((s) => s.callback)).toEqual([on("127.0.0.1", "/a")]);
      const denied = small.logs.filter((l) => l.msg === "request denied");
      expect(denied.map((l) => [l.callback, l.reason])).toEqual([
        [on("[::ffff:7f00:1]", "/b"), "the hub allows at most 1 subscriptions per callback host"],
      ]);
    });
  });

  describe("a request repeating one still pending (same topic and callback)", () => {
    it.each([
      ["HUB_MAX_PER_HOST", "for callbacks on 127.0.0.1"],
      ["HUB_MAX_SUBSCRIPTIONS", ""],
    ])(
      "is accepted at the %s limit, replacing the pending one, while another callback is still refused",
      async (limit, where) => {
        const small = await startHarness({ env: { [limit]: "1" } });
        extra.push(small);
        const release = holdVerifications();
        expect((await small.post(form("subscribe", on("127.0.0.1", "/a"), { "hub.secret": "first" }))).status).toBe(
          202,
        );
        // The same callback (`%61` is `a`) and topic: it replaces the pending request, as a renewal would.
        const again = await small.post(form("subscribe", on("127.0.0.1", "/%61"), { "hub.secret": "second" }));
        expect([again.status, (await again.text()).trim()]).toEqual([
          202,
          "Accepted: verification of intent for subscribe will follow.",
        ]);
        expect((await small.pending()).map((v) => v.secret)).toEqual(["second"]);
        // Another callback on the host is still refused: the limit holds for new work.
        const other = await small.post(form("subscribe", on("127.0.0.1", "/b")));
        expect(other.status).toBe(503);
        expect(await other.text()).toContain(`too many verifications are pending${where ? ` ${where}` : ""}`);
        release();
        await small.hub.idle();
        expect((await small.stored()).map((s) => [s.callback, s.secret])).toEqual([[on("127.0.0.1", "/a"), "second"]]);
      },
    );
  });
});
