import { describe, expect, it } from "vitest";
import { MAX_VERIFY_BODY_BYTES } from "../../../sidecar/hub/verify.ts";
import { cooperative, type Subscriber } from "../../helpers/https-subscriber.ts";
import { type Harness, TOPICS } from "../../helpers/hub-harness.ts";
import { perTestHubs } from "../../helpers/hub-subscriptions.ts";

const { harness, subscriber } = perTestHubs();

/** Sends a subscription request for `path` on `sub` and waits until the hub is done with it. */
async function request(h: Harness, sub: Subscriber, path: string): Promise<void> {
  const res = await h.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback(path) });
  expect(res.status).toBe(202);
  await h.hub.idle();
}

// The hub reads no more of a verification or denial answer than MAX_VERIFY_BODY_BYTES: past that it
// drops the connection rather than read on, so the next request to the callback needs a new one.
describe("the answer to a verification or denial GET", () => {
  it("is read up to 1 KiB when it refuses the verification, then the connection is dropped", async () => {
    const h = await harness();
    const [small, large] = [await subscriber(), await subscriber()];
    small.respond = () => ({ status: 404, body: "x".repeat(100) });
    large.respond = () => ({ status: 404, body: "x".repeat(100 * MAX_VERIFY_BODY_BYTES) });
    for (const path of ["/a", "/b", "/c"]) {
      await request(h, small, path);
      await request(h, large, path);
    }
    expect([small.requests.length, large.requests.length]).toEqual([3, 3]);
    // A short answer is read whole and its connection kept alive; a long one costs each request its own.
    expect([small.connections, large.connections]).toEqual([1, 3]);
    expect(await h.stored()).toEqual([]);
  });

  it("is read up to 1 KiB for a denial notice, then the connection is dropped", async () => {
    const h = await harness({ env: { HUB_MAX_PER_HOST: "1" } });
    const sub = await subscriber();
    await request(h, sub, "/first");
    expect(sub.connections).toBe(1);
    sub.respond = (r) =>
      r.query.get("hub.mode") === "denied"
        ? { status: 200, body: "x".repeat(100 * MAX_VERIFY_BODY_BYTES) }
        : cooperative(r);
    for (const path of ["/b", "/c", "/d"]) await request(h, sub, path);
    expect(sub.requests.filter((r) => r.query.get("hub.mode") === "denied")).toHaveLength(3);
    // The first denial reuses the verification's connection; each one after it needs a new one.
    expect(sub.connections).toBe(3);
  });
});
