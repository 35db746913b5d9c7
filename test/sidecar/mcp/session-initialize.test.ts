import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { connectClient, initializeRequest, type McpTestApp, postRpc, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * 2025-06-18 opens a session with the `initialize` that has no Mcp-Session-Id; a session's later
 * requests carry its id, and initialization is the first interaction of a session, not a later one.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let app: McpTestApp;

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
});

afterAll(async () => {
  await app?.close();
});

describe("initialize within a session", () => {
  it("is refused with 400 and -32600, as the SDK's own session transport does, and the session goes on", async () => {
    const { client, transport } = await connectClient(app.endpoint);
    const sessionId = transport.sessionId as string;
    const negotiated = transport.protocolVersion as string;
    // Another version than the session's: answered 200, it told the client a version its session does not have.
    const again = await postRpc(app.endpoint, initializeRequest("2024-11-05", 7), {
      "mcp-session-id": sessionId,
      "mcp-protocol-version": negotiated,
    });
    expect(again.status).toBe(400);
    expect(again.headers.get("mcp-session-id")).toBeNull();
    expect(again.body).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32600, message: expect.stringMatching(/already initialized.*without Mcp-Session-Id/) },
    });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // Without the header, initialize opens a new session as always.
    const fresh = await postRpc(app.endpoint, initializeRequest("2024-11-05"));
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("mcp-session-id")).not.toBe(sessionId);
  });
});
