import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { MemorySessionStore } from "../../sidecar/mcp/session-store.ts";
import { buildBeforeAll } from "./build-site.ts";
import type { ManualClock } from "./manual-clock.ts";
import { initializeRequest, type McpTestApp, startMcpApp } from "./mcp-app.ts";

/**
 * What the suites of /mcp's streamable HTTP transport share: one build of the basic fixture for
 * `BASE`, and the raw requests they send it.
 */

export const BASE = "https://reviews.test";
const CONTENT = path.resolve(import.meta.dirname, "../fixtures/basic-content");

/**
 * For a test file: the build, made before its tests, `app`, which serves it with the MCP router
 * and no other settings, and `start`, which serves it with `env` over BASE_URL; every app started
 * is closed and the build removed after them.
 */
export function servedMcpBuild(): {
  readonly app: McpTestApp;
  start(env?: Record<string, string>, clock?: ManualClock, sessions?: MemorySessionStore): Promise<McpTestApp>;
} {
  const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });
  const started: McpTestApp[] = [];
  const start = async (env: Record<string, string> = {}, clock?: ManualClock, sessions?: MemorySessionStore) => {
    const a = await startMcpApp(built.distDir, { env: { BASE_URL: BASE, ...env }, clock, sessions });
    started.push(a);
    return a;
  };
  let app: McpTestApp | undefined;
  beforeAll(async () => {
    app = await start();
  });
  afterAll(async () => {
    for (const a of started) await a.close();
  });
  return {
    get app() {
      if (!app) throw new Error("servedMcpBuild: app read before its beforeAll ran");
      return app;
    },
    start,
  };
}

export const session = (id: string, version = "2025-06-18") => ({
  "mcp-session-id": id,
  "mcp-protocol-version": version,
});
export const listTools = (id: number | string = 2) => ({ jsonrpc: "2.0", id, method: "tools/list" });

/** GET or DELETE on /mcp with optional headers. */
export const send = (endpoint: string, method: string, headers: Record<string, string> = {}) =>
  fetch(endpoint, { method, headers: { accept: "text/event-stream", ...headers } });

/** Resolves once the response body ends, whether closed cleanly or cut. */
export async function streamEnds(res: Response): Promise<true> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true }));
    if (chunk.done) return true;
  }
}

/** What `/mcp` lets a browser script read: the session id, and when and how much it may retry. */
export const MCP_EXPOSED = ["mcp-session-id", "ratelimit", "ratelimit-policy", "retry-after"];
export const exposed = (headers: Headers) =>
  (headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/).filter(Boolean).sort();

/** An initialize POST with the Host header `host`, through node:http, because fetch silently drops a `host` header. */
export function withHost(
  endpoint: string,
  host: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(initializeRequest());
    const req = request(
      endpoint,
      {
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", ...extra },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
