import { describe, expect, it } from "vitest";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { TOPICS } from "../../helpers/hub-harness.ts";
import { subscriptionBench } from "../../helpers/hub-subscriptions.ts";

const FORM = "application/x-www-form-urlencoded";

// PostgreSQL's text cannot hold U+0000: with DATABASE_URL such a request failed to be recorded and
// was answered 503 "the database is unreachable" with Retry-After, which no retry mends, while SQLite
// kept it. Both stores refuse it as the client's fault, naming the parameter.
forEachHubStore((backend) => {
  const bench = subscriptionBench();

  describe("a hub.topic or hub.secret holding U+0000 (%00)", () => {
    const topic = encodeURIComponent(TOPICS.atom);
    it.each([
      [
        "hub.secret",
        `hub.topic=${topic}&hub.secret=a%00b`,
        "hub.secret: must not contain U+0000 (NUL, %00), got 3 bytes",
      ],
      [
        "hub.topic",
        `hub.topic=%00${topic}`,
        `hub.topic: must not contain U+0000 (NUL, %00), got "\\u0000${TOPICS.atom}"`,
      ],
    ])("is refused with 400 naming %s, and nothing is recorded", async (_field, params, reason) => {
      const { h, sub } = bench;
      const raw = `hub.mode=subscribe&hub.callback=${encodeURIComponent(sub.callback())}&${params}`;
      const res = await h.post({}, FORM, raw);
      expect([res.status, (await res.text()).trim()], backend).toEqual([400, reason]);
      await h.hub.idle();
      expect(sub.requests).toEqual([]);
      expect(await h.pending()).toEqual([]);
      expect(h.logs.filter((l) => l.level >= 50)).toEqual([]);
    });
  });
});
