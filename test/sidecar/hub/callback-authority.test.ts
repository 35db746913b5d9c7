import { describe, expect, it } from "vitest";
import { TOPICS } from "../../helpers/hub-harness.ts";
import { perTestHubs } from "../../helpers/hub-subscriptions.ts";

const { harness, subscriber } = perTestHubs();

// RFC 9110 §4.2.2: "A recipient that processes such a URI reference [an https URI with an empty host
// identifier] MUST reject it as invalid." The URL parser reads `https:///host/cb` as host `host`, so
// the callback would be called at a path (`/host/cb`) the subscriber never gave.
describe("a callback whose authority is empty", () => {
  it.each(["https:///", "https:////", "HTTPS:///"])("written %s… is refused, and never called", async (prefix) => {
    const h = await harness();
    const sub = await subscriber();
    const callback = `${prefix}${sub.origin.slice("https://".length)}/cb`;
    const res = await h.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": callback });
    await h.hub.idle();
    expect(sub.requests.map((r) => r.rawUrl.split("?")[0])).toEqual([]);
    expect([res.status, await res.text()]).toEqual([
      400,
      `hub.callback: must be an absolute https URL, got ${JSON.stringify(callback)}\n`,
    ]);
    expect(await h.pending()).toEqual([]);
  });
});

// No server listens on port 0 (a client cannot connect to it), so such a callback was accepted with
// 202 and its verification could only fail, unseen by the subscriber; BASE_URL refuses it alike.
describe("a callback on port 0", () => {
  it.each(["https://reader.example.net:0/cb", "https://reader.example.net:00/cb"])(
    "%s is refused naming the port, and never recorded",
    async (callback) => {
      const h = await harness();
      const res = await h.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": callback });
      expect([res.status, await res.text()]).toEqual([
        400,
        `hub.callback: must not have port 0, which no server can be reached on, got ${JSON.stringify(callback)}\n`,
      ]);
      expect(await h.pending()).toEqual([]);
    },
  );
});
