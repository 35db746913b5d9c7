import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ChangeNotices, MAX_STREAMS_PER_SESSION } from "../../../sidecar/mcp/change-notices.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";

/**
 * 2025-06-18 "Multiple Connections": a client may hold several SSE streams, and the server sends
 * each message on only one of them. ChangeNotices on its own, with real SDK servers and
 * transports behind each stream.
 */

const URI = "reviews://2025-01-01-someone";
const TTL = 60_000;

function notices(clock: ManualClock, maxStreams = 10) {
  const server = () => new McpServer({ name: "t", version: "0" }, { capabilities: { resources: { subscribe: true } } });
  return new ChangeNotices({
    baseUrl: "https://reviews.test",
    maxSessions: 10,
    maxStreams,
    keepAliveMs: 0,
    createServer: server,
    modern: createMcpHandler(server, { legacy: "reject" }).notify,
    clock,
  });
}

const get = () => new Request("http://localhost/mcp", { method: "GET", headers: { accept: "text/event-stream" } });

describe("ChangeNotices", () => {
  it("sends each notice on one of a session's streams, its newest, and none twice", async () => {
    const clock = new ManualClock();
    const n = notices(clock);
    const exp = clock.now() + TTL;
    const streams = [await n.openStream("s", exp, get()), await n.openStream("s", exp, get())];
    expect(streams.map((r) => r.status)).toEqual([200, 200]);
    expect(n.openStreams).toBe(2);
    expect(n.subscribe("s", exp, URI)).toBe(true);
    await n.publish([URI]);
    await n.close();
    const texts = await Promise.all(streams.map((r) => r.text()));
    const count = (t: string) => t.split("notifications/resources/updated").length - 1;
    expect(texts.map(count)).toEqual([0, 1]);
  });

  it("closes a session's oldest stream past the per-session bound, and all of them when it ends", async () => {
    const clock = new ManualClock();
    const n = notices(clock);
    const exp = clock.now() + TTL;
    const streams: Response[] = [];
    for (let i = 0; i <= MAX_STREAMS_PER_SESSION; i++) streams.push(await n.openStream("s", exp, get()));
    expect(n.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    // The oldest was closed: its body ends though the others are still open.
    expect(await (streams[0] as Response).text()).toMatch(/^: stream open/);
    n.endSession("s");
    expect(n.openStreams).toBe(0);
    await Promise.all(streams.slice(1).map((r) => r.text()));
  });

  it("ends a session's streams at its expiry", async () => {
    const clock = new ManualClock();
    const n = notices(clock);
    const stream = await n.openStream("s", clock.now() + TTL, get());
    await n.openStream("s", clock.now() + TTL, get());
    clock.advance(TTL);
    expect(n.openStreams).toBe(0);
    await stream.text();
  });
});
