import { afterAll, beforeAll } from "vitest";
import { buildBeforeAll } from "./build-site.ts";
import { type McpTestApp, openSession, postModern, postRpc, type RpcReply, startMcpApp } from "./mcp-app.ts";

/**
 * A built site's /mcp with one open 2025 session, for tests that send the same request in both
 * eras: `bothEras` answers `[2025 session, 2026-07-28]`.
 */
export function mcpInBothEras(content: string, base: string) {
  const built = buildBeforeAll(content, { BASE_URL: base });
  let app: McpTestApp | undefined;
  let sessionId = "";
  beforeAll(async () => {
    app = await startMcpApp(built.distDir, { env: { BASE_URL: base } });
    sessionId = await openSession(app.endpoint);
  });
  afterAll(async () => {
    await app?.close();
  });
  const harness = {
    get app(): McpTestApp {
      return app as McpTestApp;
    },
    session: (version = "2025-06-18") => ({ "mcp-session-id": sessionId, "mcp-protocol-version": version }),
    async bothEras(method: string, params: Record<string, unknown>, name?: string): Promise<RpcReply[]> {
      const legacy = await postRpc(harness.app.endpoint, { jsonrpc: "2.0", id: 1, method, params }, harness.session());
      return [legacy, await postModern(harness.app.endpoint, method, params, name)];
    },
  };
  return harness;
}
