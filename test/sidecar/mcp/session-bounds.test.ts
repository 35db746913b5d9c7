import { describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_SESSION, MAX_SUBSCRIBED_URIS } from "../../../sidecar/mcp/change-notices.ts";
import { MemorySessionStore } from "../../../sidecar/mcp/session-store.ts";
import { STREAM_LIMIT_CODE, STREAM_RETRY_AFTER_S } from "../../../sidecar/mcp/stream-limit.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import { connectClient, initializeRequest, JSON_RPC_HEADERS, openSession, postRpc } from "../../helpers/mcp-app.ts";
import {
  BASE,
  exposed,
  listTools,
  MCP_EXPOSED,
  send,
  servedMcpBuild,
  session,
  streamEnds,
} from "../../helpers/mcp-transport.ts";
import { until } from "../../helpers/until.ts";

/** The bounds on /mcp's sessions and streams: idle timeouts, stream caps per server and per client, shutdown. */

const { start } = servedMcpBuild();
const TTL = 60_000;

describe("bounded sessions", () => {
  it("ends a session whose DELETE was recorded, and keeps refusing it after the record goes", async () => {
    const clock = new ManualClock();
    const sessions = new MemorySessionStore({ idleMs: TTL, clock });
    const timed = await start({ MCP_SESSION_TTL_MS: String(TTL) }, clock, sessions);
    const id = await openSession(timed.endpoint);
    expect((await send(timed.endpoint, "DELETE", session(id))).status).toBe(200);
    expect(sessions.size).toBe(1);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
    clock.advance(TTL);
    expect(sessions.prune()).toBe(1);
    expect(sessions.size).toBe(0);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
  });

  it("keeps a session whose client closed its event stream for the idle timeout from the close, not from the last renewal", async () => {
    const clock = new ManualClock();
    const timed = await start({ MCP_SESSION_TTL_MS: String(TTL) }, clock);
    const id = await openSession(timed.endpoint);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const abort = new AbortController();
    const stream = await fetch(timed.endpoint, {
      headers: { accept: "text/event-stream", ...session(id) },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    // Renewed at half the time left: at TTL / 2, and not again before TTL.
    clock.advance(TTL / 2);
    await settle();
    clock.advance(TTL / 2 - 1_000);
    await settle();
    abort.abort();
    await until(() => timed.mcp.openStreams === 0, 5_000);
    // configuration.md: the session expires the idle timeout after its stream was closed.
    clock.advance(TTL - 1_000);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(200);
    clock.advance(TTL);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
  });

  it("lets a session hold several GET streams, at most MCP_MAX_STREAMS in all, then answers 503", async () => {
    const capped = await start({ MCP_MAX_STREAMS: String(MAX_STREAMS_PER_SESSION + 1) });
    const [a, b] = [await openSession(capped.endpoint), await openSession(capped.endpoint)];
    const own: Response[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) own.push(await send(capped.endpoint, "GET", session(a)));
    expect(own.map((r) => r.status)).toEqual(own.map(() => 200));
    expect(capped.mcp.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    // One more on the same session (a reconnecting client) closes its oldest, and only that one.
    const oldestEnded = streamEnds(own[0] as Response);
    const newest = await send(capped.endpoint, "GET", session(a));
    expect(newest.status).toBe(200);
    await expect(oldestEnded).resolves.toBe(true);
    expect(capped.mcp.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    const ofB = await send(capped.endpoint, "GET", session(b));
    expect(ofB.status).toBe(200);
    const refused = await send(capped.endpoint, "GET", session(b));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect([refused.headers.get("access-control-allow-origin"), exposed(refused.headers)]).toEqual(["*", MCP_EXPOSED]);
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: STREAM_LIMIT_CODE } });
    // DELETE ends every stream of the session.
    const ended = [...own.slice(1), newest].map(streamEnds);
    expect((await send(capped.endpoint, "DELETE", session(a))).status).toBe(200);
    await expect(Promise.all(ended)).resolves.toEqual(ended.map(() => true));
    expect(capped.mcp.openStreams).toBe(1);
    // A client that hangs up frees its place.
    await ofB.body?.cancel();
    await until(() => capped.mcp.openStreams === 0, 5_000);
  });

  it("holds one client to MCP_MAX_STREAMS_PER_CLIENT streams of both eras together, and gives a place back when one closes", async () => {
    const shared = await start({ MCP_MAX_STREAMS_PER_CLIENT: "2" });
    const [a, b] = [await openSession(shared.endpoint), await openSession(shared.endpoint)];
    const first = await send(shared.endpoint, "GET", session(a));
    const second = await send(shared.endpoint, "GET", session(b));
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await send(shared.endpoint, "GET", session(a));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect(await refused.json()).toMatchObject({
      error: {
        code: STREAM_LIMIT_CODE,
        message: expect.stringContaining("this client has 2 change-notice streams open"),
      },
    });
    // The server's cap is far off: the share is the client's own.
    expect(shared.mcp.openStreams).toBe(2);
    // Requests that open no stream do not count against it.
    expect((await postRpc(shared.endpoint, listTools(), session(a))).status).toBe(200);
    await first.body?.cancel();
    await until(() => shared.mcp.openStreams === 1, 5_000);
    const again = await send(shared.endpoint, "GET", session(a));
    expect(again.status).toBe(200);
    await Promise.all([again.body?.cancel(), second.body?.cancel()]);
  });

  it("counts an IPv6 client's share by its /56, as the rate limit does, not by each of its addresses", async () => {
    const shared = await start({ MCP_MAX_STREAMS_PER_CLIENT: "2", TRUST_PROXY: "1" });
    const from = async (address: string) =>
      send(shared.endpoint, "GET", { ...session(await openSession(shared.endpoint)), "x-forwarded-for": address });
    const held = [await from("2001:db8:1:2::1"), await from("2001:db8:1:2::2")];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    // Another address of the same subscriber's prefix: the same client.
    const refused = await from("2001:db8:1:2:aaaa::3");
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: STREAM_LIMIT_CODE } });
    // Another subscriber's prefix has a share of its own.
    const other = await from("2001:db8:1:300::1");
    expect(other.status).toBe(200);
    await Promise.all([...held, other].map((r) => r.body?.cancel()));
  });

  it("answers subscriptions/listen past MCP_MAX_STREAMS as the 2025 GET: 503, Retry-After, the same code", async () => {
    const capped = await start({ MCP_MAX_STREAMS: "1" });
    const listen = (id: number) => rawListen(capped.endpoint, id);
    const first = await listen(1);
    expect([first.status, first.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const refused = await listen(2);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: STREAM_LIMIT_CODE } });
    expect(capped.mcp.openListens).toBe(1);
    await first.body?.cancel();
    await until(() => capped.mcp.openListens === 0, 5_000);
    const again = await listen(3);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("holds a subscriptions/listen to 64 URIs, as a 2025 session's subscriptions", async () => {
    const app = await start({});
    const uris = (n: number) => Array.from({ length: n }, () => `${BASE}/reviews.json`);
    const refused = await rawListen(app.endpoint, 7, uris(MAX_SUBSCRIBED_URIS + 1));
    expect([refused.status, refused.headers.get("content-type")]).toEqual([200, "application/json"]);
    const body = await refused.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
    expect(body.error.message).toMatch(/resourceSubscriptions: at most 64 URIs, got 65/);
    expect(app.mcp.openListens).toBe(0);
    const held = await rawListen(app.endpoint, 8, uris(MAX_SUBSCRIBED_URIS));
    expect([held.status, held.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    await held.body?.cancel();
  });

  it("closes every stream of both eras on shutdown and refuses new requests", async () => {
    const closing = await start();
    const id = await openSession(closing.endpoint);
    const stream = await send(closing.endpoint, "GET", session(id));
    const ended = streamEnds(stream);
    const { client } = await connectClient(closing.endpoint, "modern");
    const listen = await client.listen({ resourceSubscriptions: [`${BASE}/reviews.json`] });
    await closing.mcp.close();
    await expect(ended).resolves.toBe(true);
    await expect(listen.closed).resolves.toMatch(/graceful|remote/);
    await client.close();
    expect(closing.mcp.openStreams).toBe(0);
    expect((await postRpc(closing.endpoint, listTools(), session(id))).status).toBe(503);
    expect((await postRpc(closing.endpoint, initializeRequest())).status).toBe(503);
  });
});

/** A raw 2026-07-28 `subscriptions/listen` for `uris` (the reviews dataset by default). */
function rawListen(endpoint: string, id: number, uris = [`${BASE}/reviews.json`]): Promise<Response> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const notifications = { resourceSubscriptions: uris };
  return fetch(endpoint, {
    method: "POST",
    headers: { ...JSON_RPC_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta } }),
  });
}
