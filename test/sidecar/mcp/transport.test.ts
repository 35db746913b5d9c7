import { request } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { connectClient, initializeRequest, openSession, postRpc } from "../../helpers/mcp-app.ts";
import { listTools, send, servedMcpBuild, session, streamEnds } from "../../helpers/mcp-transport.ts";

/**
 * Sessions on /mcp's streamable HTTP transport: how they start, are found and end, in both eras.
 * test/helpers/mcp-transport.ts holds what the transport suites share.
 */

const served = servedMcpBuild();
const { start } = served;

describe("streamable HTTP sessions", () => {
  it("initializes on 2025-06-18 and returns the session id in Mcp-Session-Id", async () => {
    const init = await postRpc(served.app.endpoint, initializeRequest("2025-06-18"));
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toMatch(/^application\/json/);
    expect(init.headers.get("mcp-session-id")).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(init.body.result.protocolVersion).toBe("2025-06-18");
    const id = init.headers.get("mcp-session-id") as string;
    const ack = await postRpc(
      served.app.endpoint,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      session(id),
    );
    expect(ack.status).toBe(202);
    // The id records the version the SDK answered with, also when the client asked for another.
    const other = await postRpc(served.app.endpoint, initializeRequest("2099-01-01"));
    const answered = other.body.result.protocolVersion;
    expect(answered).not.toBe("2099-01-01");
    const payload = (other.headers.get("mcp-session-id") as string).split(".")[0] as string;
    expect(JSON.parse(Buffer.from(payload, "base64url").toString()).pv).toBe(answered);
  });

  it("answers a request without a session id with 400", async () => {
    const post = await postRpc(served.app.endpoint, listTools());
    expect([post.status, post.body.error.code]).toEqual([400, -32000]);
    expect(post.body.error.message).toMatch(/Mcp-Session-Id header is required/);
    for (const method of ["GET", "DELETE"]) expect((await send(served.app.endpoint, method)).status).toBe(400);
  });

  it("answers an unknown, forged or foreign session id with 404 so the client re-initializes", async () => {
    const real = await openSession(served.app.endpoint);
    const [payload, signature] = real.split(".") as [string, string];
    const other = await start({ MCP_SESSION_SECRET: "another-secret-of-at-least-32-characters" });
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 1e9 })).toString("base64url");
    const ids = [
      "00000000-0000-4000-8000-000000000000",
      `${longer}.${signature}`,
      `${payload}.${"A".repeat(43)}`,
      await openSession(other.endpoint),
    ];
    for (const id of ids) {
      const post = await postRpc(served.app.endpoint, listTools(), session(id));
      expect([post.status, post.body.error.code], id).toEqual([404, -32001]);
      for (const method of ["GET", "DELETE"])
        expect((await send(served.app.endpoint, method, session(id))).status).toBe(404);
    }
  });

  it("accepts an id issued by another instance that shares MCP_SESSION_SECRET", async () => {
    const env = { MCP_SESSION_SECRET: "a-secret-shared-by-every-instance-000" };
    const [a, b] = [await start(env), await start(env)];
    const id = await openSession(a.endpoint);
    const res = await postRpc(b.endpoint, listTools(), session(id));
    expect(res.status).toBe(200);
    expect(res.body.result.tools.map((t: { name: string }) => t.name)).toContain("get_log_checkpoint");
    expect(res.body.result.tools).toHaveLength(6);
  });

  it("ends a session on DELETE: its SSE stream closes and the id is then unknown", async () => {
    const id = await openSession(served.app.endpoint);
    const stream = await send(served.app.endpoint, "GET", session(id));
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const ended = streamEnds(stream);
    expect((await send(served.app.endpoint, "DELETE", session(id))).status).toBe(200);
    await expect(ended).resolves.toBe(true);
    expect((await postRpc(served.app.endpoint, listTools(), session(id))).status).toBe(404);
    // An SDK client resuming the deleted session (no initialize, since it has an id) is told 404.
    const resumed = new Client({ name: "resume", version: "0" });
    await resumed.connect(new StreamableHTTPClientTransport(new URL(served.app.endpoint), { sessionId: id }));
    await expect(resumed.callTool({ name: "get_business", arguments: {} })).rejects.toMatchObject({
      data: { status: 404 },
    });
    await resumed.close();
  });

  it("lets the SDK client end its own session", async () => {
    const { client, transport } = await connectClient(served.app.endpoint);
    const id = transport.sessionId as string;
    expect((await postRpc(served.app.endpoint, listTools(), session(id))).status).toBe(200);
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect((await postRpc(served.app.endpoint, listTools(), session(id))).status).toBe(404);
    await client.close();
  });

  it("answers every JSON request with one complete JSON body, in both eras (the SDK's Node adapter)", async () => {
    const id = await openSession(served.app.endpoint);
    const modernMeta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const call = (extra: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { limit: 3 }, ...extra },
    });
    const exchanges = [
      { headers: session(id), body: call() },
      { headers: session(id), body: listTools() },
      {
        headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_reviews" },
        body: call({ _meta: modernMeta }),
      },
    ];
    for (const { headers, body } of exchanges) {
      const raw = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const req = request(
          served.app.endpoint,
          {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (d: Buffer) => chunks.push(d));
            res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(body));
      });
      expect(raw.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(raw.bytes.toString()).id).toBe(body.id);
    }
  });

  it("rejects an unsupported Mcp-Protocol-Version header and other HTTP methods", async () => {
    const id = await openSession(served.app.endpoint);
    expect((await postRpc(served.app.endpoint, listTools(), session(id, "1999-01-01"))).status).toBe(400);
    const put = await send(served.app.endpoint, "PUT", session(id));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
  });
});
