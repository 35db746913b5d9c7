import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import type { Config } from "../../src/config.ts";
import type { SnapshotStore } from "../build/snapshot.ts";
import type { Logger } from "../logger.ts";
import { allowedHostnames, bodyErrors, hostGuard, mcpCors, rpcError } from "./http-guards.ts";
import { guardParams, invalidParams } from "./params-guard.ts";
import { createMcpServer } from "./server.ts";
import { type Clock, SessionRegistry } from "./session-registry.ts";

/** A JSON-RPC message to this server is a few hundred bytes; 64 KiB leaves room and bounds memory. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface McpRouterDeps {
  config: Pick<Config, "BASE_URL" | "MCP_SESSION_TTL_MS" | "MCP_MAX_SESSIONS" | "MCP_ALLOWED_ORIGINS">;
  store: SnapshotStore;
  logger: Logger;
  clock?: Clock;
}

export interface McpRouter {
  /** Mount at `/mcp`. */
  router: Router;
  /** Number of live sessions (for tests and health reporting). */
  readonly sessionCount: number;
  /** Ends every session, which also ends their open SSE streams; new sessions are refused after. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

/** Why a body is not a JSON-RPC 2.0 message (or batch), or undefined when it is one. */
function invalidMessage(body: unknown): string | undefined {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0) return "an empty batch is not a JSON-RPC request";
  for (const item of items) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      return `expected a JSON-RPC 2.0 message object, got ${item === null ? "null" : Array.isArray(item) ? "an array" : typeof item}`;
    }
    const jsonrpc = (item as { jsonrpc?: unknown }).jsonrpc;
    if (jsonrpc !== "2.0") return `jsonrpc must be "2.0", got ${JSON.stringify(jsonrpc) ?? "nothing"}`;
    if (!JSONRPCMessageSchema.safeParse(item).success) {
      return "not a JSON-RPC 2.0 request, notification or response (check method, id, params)";
    }
  }
  return undefined;
}

/** The id to echo in an error about this body, when it has a usable one. */
function idOf(body: unknown): string | number | null {
  const id = body && typeof body === "object" && !Array.isArray(body) ? (body as { id?: unknown }).id : null;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function sessionHeader(req: Request): string | undefined {
  const value = req.headers["mcp-session-id"];
  return typeof value === "string" && value !== "" ? value : undefined;
}

const sessionNotFound = (res: Response) =>
  rpcError(res, 404, -32001, "Session not found: it expired, was ended or never existed; send initialize again");
const sessionMissing = (res: Response) =>
  rpcError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first to get one");

/**
 * `/mcp`: MCP over streamable HTTP (2025-06-18 and the newer versions the SDK negotiates), one
 * fresh `McpServer` and transport per session. Responses to POSTs are plain JSON rather than SSE:
 * every tool answers from memory at once and sends no progress, so JSON is simpler for curl and
 * proxies and frees the connection immediately. GET opens the session's SSE stream.
 */
export function createMcpRouter(deps: McpRouterDeps): McpRouter {
  const { config, store } = deps;
  const log = deps.logger.child({ component: "mcp" });
  const registry = new SessionRegistry<Session>({
    ttlMs: config.MCP_SESSION_TTL_MS,
    maxSessions: config.MCP_MAX_SESSIONS,
    clock: deps.clock,
    onEnd: (id, reason) => log.info({ session: id, reason }, "mcp session ended"),
    onCloseError: (id, err) => log.warn({ session: id, err }, "mcp session did not close cleanly"),
  });
  let closed = false;

  async function openSession(req: Request, res: Response, body: unknown): Promise<void> {
    const server = createMcpServer({ store, baseUrl: config.BASE_URL });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      // Registered before the initialize response is written, so the client's next request finds it.
      onsessioninitialized: (id) => {
        registry.add(id, { server, transport, close: () => server.close() });
        log.info({ session: id, sessions: registry.size }, "mcp session started");
      },
      onsessionclosed: (id) => {
        registry.remove(id);
        log.info({ session: id, reason: "deleted" }, "mcp session ended");
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) registry.remove(transport.sessionId);
    };
    await server.connect(transport);
    guardParams(transport);
    await transport.handleRequest(req, res, body);
    // Refused before a session existed (bad Accept, unsupported version): nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  }

  const post: RequestHandler = async (req, res) => {
    if (closed) return rpcError(res, 503, -32000, "Service Unavailable: the server is shutting down");
    if (!req.is("application/json")) {
      return rpcError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body: unknown = req.body;
    const invalid = invalidMessage(body);
    if (invalid) return rpcError(res, 400, -32600, `Invalid Request: ${invalid}`, idOf(body));
    const id = sessionHeader(req);
    if (id !== undefined) {
      const session = registry.get(id);
      if (!session) return sessionNotFound(res);
      return session.transport.handleRequest(req, res, body);
    }
    if (!isInitializeRequest(body)) {
      const method = (body as { method?: unknown }).method;
      const problem = method === "initialize" ? invalidParams(body as { method: string }) : undefined;
      if (problem) return rpcError(res, 400, -32602, problem, idOf(body));
      return sessionMissing(res);
    }
    return openSession(req, res, body);
  };

  /** GET (the session's SSE stream) and DELETE (end the session) act on an existing session only. */
  const existing: RequestHandler = async (req, res) => {
    const id = sessionHeader(req);
    if (id === undefined) return sessionMissing(res);
    const session = registry.get(id);
    if (!session) return sessionNotFound(res);
    return session.transport.handleRequest(req, res);
  };

  const router = Router();
  router.use(hostGuard(allowedHostnames(config.BASE_URL)), mcpCors(config.MCP_ALLOWED_ORIGINS));
  router.post("/", express.json({ limit: MAX_BODY_BYTES, strict: false }), post);
  router.get("/", existing);
  router.delete("/", existing);
  router.all("/", (_req, res) => {
    res.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
    rpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE");
  });
  router.use(bodyErrors(MAX_BODY_BYTES));

  return {
    router,
    get sessionCount() {
      return registry.size;
    },
    close() {
      closed = true;
      return registry.closeAll();
    },
  };
}
