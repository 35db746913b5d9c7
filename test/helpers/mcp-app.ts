import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Clock } from "../../sidecar/clock.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { createMcpRouter, type McpRouter } from "../../sidecar/mcp/router.ts";
import type { SessionStore } from "../../sidecar/mcp/session-store.ts";
import type { ReviewsDataset } from "../../src/content/records.ts";
import { strongEtag } from "../../src/http-headers/manifest.ts";
import { startApp, type TestApp } from "./app-server.ts";

export interface McpTestApp extends TestApp {
  mcp: McpRouter;
  /** `${url}/mcp` */
  endpoint: string;
}

/** The real app with the real MCP router mounted at /mcp, on port 0 over a built `distDir`. */
export async function startMcpApp(
  distDir: string,
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    sessions?: SessionStore;
  } = {},
): Promise<McpTestApp> {
  let mcp: McpRouter | undefined;
  const app = await startApp(distDir, {
    env: { RATE_LIMIT_PER_MINUTE: "1000000", ...opts.env },
    serveStatic: true,
    routers: ({ config, store, live }) => {
      mcp = createMcpRouter({
        config,
        store,
        builds: live,
        logger: createLogger("silent"),
        clock: opts.clock,
        sessions: opts.sessions,
      });
      return { mcp };
    },
  });
  if (!mcp) throw new Error("the MCP router was not created");
  const router = mcp;
  return {
    ...app,
    mcp: router,
    endpoint: `${app.url}/mcp`,
    // Sessions first: an open SSE stream would otherwise hold the HTTP server open.
    close: async () => {
      await router.close();
      await app.close();
    },
  };
}

/**
 * A connected SDK client and its transport. `legacy` (the SDK default) runs the 2025 initialize
 * handshake and gets a session; `modern` pins 2026-07-28 (server/discover, no session).
 */
export async function connectClient(
  endpoint: string,
  era: "legacy" | "modern" = "legacy",
): Promise<{
  client: Client;
  transport: StreamableHTTPClientTransport;
}> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint));
  const client = new Client(
    { name: "public-reviews-test", version: "0.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return { client, transport };
}

export const JSON_RPC_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

export interface RpcReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies are asserted field by field
  body: any;
}

/** POSTs a JSON-RPC body (an object, or raw text sent as is) to /mcp. */
export async function postRpc(
  endpoint: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { ...JSON_RPC_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export const MODERN_VERSION = "2026-07-28";

/**
 * A raw 2026-07-28 request: `params._meta` with the protocol version, client info and
 * capabilities, and the `Mcp-Method` header (and `Mcp-Name` when given).
 */
export function postModern(
  endpoint: string,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
): Promise<RpcReply> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return postRpc(
    endpoint,
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } },
    {
      "mcp-protocol-version": MODERN_VERSION,
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
  );
}

export const initializeRequest = (protocolVersion = "2025-06-18", id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-http-test", version: "0.0.0" } },
});

/** Initializes a session over raw HTTP and sends `notifications/initialized`; returns its id. */
export async function openSession(endpoint: string, protocolVersion = "2025-06-18"): Promise<string> {
  const init = await postRpc(endpoint, initializeRequest(protocolVersion));
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !id) throw new Error(`initialize failed: ${init.status} ${JSON.stringify(init.body)}`);
  const ack = await postRpc(
    endpoint,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { "mcp-session-id": id, "mcp-protocol-version": protocolVersion },
  );
  if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`);
  return id;
}

/**
 * A publish in which one review's text changed: rewrites `/reviews.json` in `app`'s build folder
 * (and its ETag in the manifest) and makes it live, so change notices go out for that review.
 */
export async function publishEditedReview(app: McpTestApp, reviewId: string): Promise<void> {
  const dir = app.store.current.dir;
  const dataset = JSON.parse(await readFile(path.join(dir, "reviews.json"), "utf8")) as ReviewsDataset;
  const changed = {
    ...dataset,
    reviews: dataset.reviews.map((r) => (r.id === reviewId ? { ...r, text: `${r.text} Edited.` } : r)),
  };
  const bytes = JSON.stringify(changed);
  const manifestPath = path.join(dir, "_headers.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
  manifest.files["/reviews.json"].etag = strongEtag(bytes);
  await writeFile(path.join(dir, "reviews.json"), bytes);
  await writeFile(manifestPath, JSON.stringify(manifest));
  await app.live.goLive("publish");
}
