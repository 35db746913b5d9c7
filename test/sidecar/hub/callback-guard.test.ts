import type dns from "node:dns";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { forbiddenCategory, guardedLookup } from "../../../sidecar/hub/callback-guard.ts";
import { createHubAgent } from "../../../sidecar/hub/http-client.ts";
import { type Harness, TOPICS } from "../../helpers/hub-harness.ts";
import { perTestHubs } from "../../helpers/hub-subscriptions.ts";

const GUARD_ON = { HUB_ALLOW_PRIVATE_CALLBACKS: "false" };

const hubs = perTestHubs();
const { subscriber } = hubs;
const harness = (env: Record<string, string>, more: Parameters<typeof hubs.harness>[0] = {}): Promise<Harness> =>
  hubs.harness({ env, ...more });

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["100.64.0.1", "CGNAT"],
    ["fd00:ec2::254", "unique-local"],
    ["224.0.0.251", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:a00:1::", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    // The local-use NAT64 prefix is refused whatever its tail, even one that reads as 8.8.8.8.
    ["64:ff9b:1:a00:0:100:808:808", "reserved"],
    ["64:ff9b:1::808:808", "reserved"],
    ["::7f00:1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["100::1", "reserved"],
    ["fec0::1", "reserved"],
  ])("refuses %s as %s", (address, category) => {
    expect(forbiddenCategory(address)).toBe(category);
  });

  it.each([
    "93.184.215.14",
    "100.128.0.1",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::",
    "example.com",
    "127.1",
  ])("allows %s", (address) => {
    expect(forbiddenCategory(address)).toBeUndefined();
  });
});

describe("subscription requests with the guard on", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1 is a loopback address"],
    ["10.0.0.1", "10.0.0.1 is a private address"],
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1] is a loopback address"],
    ["169.254.169.254", "169.254.169.254 is a link-local address"],
    ["0.0.0.0", "0.0.0.0 is an unspecified address"],
  ])("refuses a callback at %s synchronously, contacting nothing", async (host, why) => {
    const sub = await subscriber();
    const h = await harness(GUARD_ON);
    const port = new URL(sub.origin).port;
    const res = await h.post({
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.atom,
      "hub.callback": `https://${host}:${port}/callback`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      `hub.callback: ${why}, which the hub does not call, got "https://${host}:${port}/callback"\n`,
    );
    await h.hub.idle();
    expect(sub.requests).toEqual([]);
    expect(await h.pending()).toEqual([]);
    expect(await h.stored()).toEqual([]);
  });

  it("names a private callback beside the request's other faults, not only once they are mended", async () => {
    const h = await harness(GUARD_ON);
    const callback = "https://10.0.0.1/callback";
    const res = await h.post({
      "hub.mode": "subscribe",
      "hub.topic": TOPICS.atom,
      "hub.callback": callback,
      "hub.lease_seconds": "1.5",
    });
    expect([res.status, await res.text()]).toEqual([
      400,
      `hub.lease_seconds: must be a whole number of seconds, got "1.5"; hub.callback: 10.0.0.1 is a private address, which the hub does not call, got "${callback}"\n`,
    ]);
  });

  it("refuses a host name that resolves to loopback when connecting, without contacting it", async () => {
    const sub = await subscriber();
    const h = await harness(GUARD_ON);
    const callback = `https://localhost:${new URL(sub.origin).port}/callback`;
    const res = await h.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": callback });
    expect(res.status).toBe(202);
    await h.hub.idle();
    expect(sub.requests).toEqual([]);
    expect(await h.stored()).toEqual([]);
    const reason = String(h.logs.find((l) => l.msg.startsWith("verification"))?.reason);
    expect(reason).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it("never delivers to a private address stored while private callbacks were allowed", async () => {
    const sub = await subscriber();
    const open1 = await harness({});
    await open1.writeTopic(TOPICS.atom, "<feed>v1</feed>");
    await open1.hub.publish();
    await open1.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() });
    await open1.hub.idle();
    expect(await open1.stored()).toHaveLength(1);
    await open1.close();
    const requestsBefore = sub.requests.length;

    await open1.writeTopic(TOPICS.atom, "<feed>v2</feed>");
    const guarded = await harness(GUARD_ON, { dataDir: open1.dataDir, distDir: open1.distDir });
    await guarded.hub.idle();
    expect(sub.requests).toHaveLength(requestsBefore);
    expect(await guarded.stored()).toMatchObject([{ state: "retrying", failures: 1 }]);
    expect(guarded.logs.find((l) => l.msg === "delivery failed; will retry")?.reason).toBe(
      "127.0.0.1 is a loopback address",
    );
  });
});

describe("connect-time checks", () => {
  it("checks the address of every new connection, so a name rebound to loopback is refused", async () => {
    const sub = await subscriber();
    const answers = ["93.184.215.14", "127.0.0.1"];
    const resolve = ((_host: string, _opts: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) => {
      cb(null, [{ address: answers.shift() ?? "127.0.0.1", family: 4 }]);
    }) as unknown as typeof dns.lookup;
    const lookup = guardedLookup(resolve);
    const first = await new Promise((r) => lookup("rebind.test", { all: true }, (err, a) => r(err ?? a)));
    expect(first).toEqual([{ address: "93.184.215.14", family: 4 }]);
    const second = await new Promise((r) => lookup("rebind.test", { all: true }, (err) => r(err?.message)));
    expect(second).toBe("rebind.test resolves to 127.0.0.1, a loopback address");

    const agent = createHubAgent({ timeoutMs: 2000, allowPrivate: false, resolve, baseUrl: "https://reviews.test" });
    hubs.closeAfter({ close: () => agent.destroy() });
    const port = new URL(sub.origin).port;
    await expect(request(`https://rebind.test:${port}/`, { dispatcher: agent })).rejects.toThrow(
      /rebind\.test resolves to 127\.0\.0\.1/,
    );
    await expect(request(`https://[::ffff:127.0.0.1]:${port}/`, { dispatcher: agent })).rejects.toThrow(
      /loopback address/,
    );
    expect(sub.requests).toEqual([]);
  });
});
