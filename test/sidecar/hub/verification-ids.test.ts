import { afterEach, beforeEach, expect, inject, it } from "vitest";
import {
  cooperative,
  isDenial,
  isVerification,
  type Subscriber,
  startSubscriber,
} from "../../helpers/https-subscriber.ts";
import { forEachHubStore } from "../../helpers/hub-backends.ts";
import { type Harness, startHarness, TOPICS } from "../../helpers/hub-harness.ts";

/**
 * Every request answered 202 is verified (W3C WebSub §5.3), however requests and their outcomes
 * interleave: one accepted while the hub is still busy with an earlier request is not mistaken for
 * it. SQLite gave the new request the id of the earlier one's row, just removed: the queue, which
 * skips an id it already holds, never verified it, and an earlier request of the same subscriber
 * still being verified took the newer one's row for its own.
 */

const tls = inject("testTls");

forEachHubStore(() => {
  let h: Harness;
  let sub: Subscriber;

  beforeEach(async () => {
    sub = await startSubscriber(tls.trusted);
  });

  afterEach(async () => {
    await h.close();
    await sub.close();
  });

  const form = (mode: string, path: string) => ({
    "hub.mode": mode,
    "hub.topic": TOPICS.atom,
    "hub.callback": sub.callback(path),
  });

  async function until(done: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
    const end = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  }

  it("verifies a request accepted while the denial of an earlier one is still being sent", async () => {
    h = await startHarness({ env: { HUB_MAX_PER_HOST: "1" } });
    expect((await h.post(form("subscribe", "/first"))).status).toBe(202);
    expect(await until(async () => (await h.stored()).length === 1)).toBe(true);

    // Denial notices are answered only once the next request has been accepted.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    sub.respond = async (req) => {
      if (isDenial(req)) await held;
      return cooperative(req);
    };
    // Over the one-per-host cap: refused, with a notice the subscriber is slow to answer.
    expect((await h.post(form("subscribe", "/second"))).status).toBe(202);
    await sub.waitFor(isDenial);
    expect((await h.post(form("unsubscribe", "/first"))).status).toBe(202);
    release();

    expect(await until(async () => (await h.pending()).length === 0)).toBe(true);
    expect(sub.requests.filter(isVerification("unsubscribe"))).toHaveLength(1);
    expect(await h.stored()).toEqual([]);
  });

  it("lets a newer request supersede the one of the same subscriber still being verified", async () => {
    h = await startHarness();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    sub.respond = async (req) => {
      if (isVerification("subscribe")(req)) await held;
      return cooperative(req);
    };
    expect((await h.post(form("subscribe", "/first"))).status).toBe(202);
    await sub.waitFor(isVerification("subscribe"));
    expect((await h.post(form("unsubscribe", "/first"))).status).toBe(202);
    release();

    expect(await until(async () => (await h.pending()).length === 0)).toBe(true);
    expect(await until(async () => sub.requests.some(isVerification("unsubscribe")))).toBe(true);
    expect(await h.stored()).toEqual([]);
  });
});
