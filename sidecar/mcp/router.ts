import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  type McpServer,
} from "@modelcontextprotocol/server";
import express, { type RequestHandler, Router } from "express";
import { echoedText } from "../../src/api/echoed-values.ts";
import type { Config } from "../../src/config.ts";
import { duplicateName } from "../../src/content/json-names.ts";
import { utf8CharsetLabels, xGzipAsGzip } from "../body-codings.ts";
import type { BuildEvents } from "../build/live-build.ts";
import type { Snapshot, SnapshotStore } from "../build/snapshot.ts";
import type { Clock } from "../clock.ts";
import { cors } from "../cors.ts";
import type { Logger } from "../logger.ts";
import { ChangeNotices, changedUris } from "./change-notices.ts";
import { ClientStreams } from "./client-streams.ts";
import {
  acceptAsListed,
  allowedHostnames,
  bodyErrors,
  emptyBodies,
  hostGuard,
  mcpCorsPolicy,
  originGuard,
  utf8Only,
} from "./http-guards.ts";
import { jsonPerRequest, LegacySessions, SESSION_HEADER } from "./legacy-sessions.ts";
import { longHeaderRefusal } from "./long-headers.ts";
import {
  batchRefusal,
  bodyProblem,
  idOf,
  invalidMessage,
  MAX_NESTING,
  nameGivenTwice,
  nonIJsonHeader,
} from "./messages.ts";
import { invalidParams } from "./params-guard.ts";
import { rpcError, rpcErrorResponse } from "./rpc-error.ts";
import { createMcpServer, createNoticeServer } from "./server.ts";
import { MemorySessionStore, type SessionStore } from "./session-store.ts";
import { SessionTokens } from "./session-token.ts";
import { countedListens } from "./stream-limit.ts";
import { addSubscribeHandlers, listenRefusal } from "./subscriptions.ts";

/** A JSON-RPC message to this server is a few hundred bytes; 64 KiB leaves room and bounds memory. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface McpRouterDeps {
  config: Pick<
    Config,
    | "BASE_URL"
    | "MCP_SESSION_TTL_MS"
    | "MCP_MAX_SESSIONS"
    | "MCP_MAX_STREAMS"
    | "MCP_MAX_STREAMS_PER_CLIENT"
    | "MCP_KEEPALIVE_MS"
    | "MCP_ALLOWED_ORIGINS"
    | "MCP_SESSION_SECRET"
  >;
  store: SnapshotStore;
  /** "A new build is live": change notices go out for what it changed. */
  builds: BuildEvents;
  logger: Logger;
  /** Wall clock for session expiry; tests move it by hand. */
  clock?: Clock;
  /** Where sessions' last use and end are kept; default in memory (one instance). */
  sessions?: SessionStore;
}

export interface McpRouter {
  /**
   * Run on every `/mcp` request before anything that may answer it (the app's URL bound and rate
   * limiter): the Host and Origin checks and MCP's CORS, so every answer of `/mcp` carries them.
   */
  guard: Router;
  /** Mount at `/mcp`, after `guard`. */
  router: Router;
  /** Open change-notice streams of 2025 sessions (GET). */
  readonly openStreams: number;
  /** Open 2026-07-28 `subscriptions/listen` streams. */
  readonly openListens: number;
  /** Ends every stream and refuses new requests. */
  close(): Promise<void>;
}

/**
 * `/mcp`, both protocol eras on one endpoint with the official SDK (2.x):
 * - 2026-07-28 requests (a `_meta` protocol version on each) go to the SDK's `createMcpHandler`,
 *   stateless: a fresh server per request, `server/discover`, header checks, cache hints and
 *   `subscriptions/listen`;
 * - 2025-era traffic goes through our session rules (signed ids, see legacy-sessions.ts) to the
 *   SDK's per-request legacy serving.
 * Which era a request belongs to is decided by the SDK's own `isLegacyRequest`.
 */
export function createMcpRouter(deps: McpRouterDeps): McpRouter {
  const { config, store } = deps;
  const log = deps.logger.child({ component: "mcp" });
  const onerror = (err: Error) => log.debug({ err }, "mcp request refused");
  // Logs name a session by the end of its signature: unique, and useless without the whole id.
  const tokens = new SessionTokens({
    // Unset here only in-process (tests); `npm start` and the sidecar pass the one kept in DATA_DIR.
    secret: config.MCP_SESSION_SECRET ?? randomBytes(32),
    ttlMs: config.MCP_SESSION_TTL_MS,
    clock: deps.clock,
  });
  const sessionStore: SessionStore =
    deps.sessions ??
    new MemorySessionStore({
      idleMs: config.MCP_SESSION_TTL_MS,
      maxEntries: config.MCP_MAX_SESSIONS,
      clock: deps.clock,
    });
  const baseUrl = config.BASE_URL;

  /**
   * Each POST's snapshot, pinned when it arrived (as the HTTP routes pin theirs), by its parsed
   * body, which reaches the SDK's fetch handler as `parsedBody`.
   */
  const pinned = new WeakMap<object, Snapshot>();
  /** Each POST's parsed body by its web Request, which the SDK hands to the factory as `requestInfo`. */
  const bodies = new WeakMap<Request, unknown>();
  const factory = (ctx: McpRequestContext): McpServer => {
    const body = ctx.requestInfo && (bodies.get(ctx.requestInfo) as { params?: { arguments?: unknown } } | undefined);
    const snapshot = (body && pinned.get(body)) ?? store.current;
    const server = createMcpServer({ snapshot, baseUrl, argumentsAsSent: body?.params?.arguments });
    const sessionId = ctx.requestInfo?.headers.get(SESSION_HEADER);
    if (ctx.era === "legacy" && sessionId) addSubscribeHandlers(server, { sessionId, notices, snapshot, baseUrl });
    return server;
  };
  const modern = createMcpHandler(factory, {
    legacy: "reject",
    maxSubscriptions: config.MCP_MAX_STREAMS,
    keepAliveMs: config.MCP_KEEPALIVE_MS,
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror,
  });
  const listen = countedListens(config.MCP_MAX_STREAMS, (request, options) => modern.fetch(request, options));
  const shares = new ClientStreams(config.MCP_MAX_STREAMS_PER_CLIENT);
  const notices: ChangeNotices = new ChangeNotices({
    baseUrl: config.BASE_URL,
    maxSessions: config.MCP_MAX_SESSIONS,
    maxStreams: config.MCP_MAX_STREAMS,
    keepAliveMs: config.MCP_KEEPALIVE_MS,
    idleMs: config.MCP_SESSION_TTL_MS,
    renew: (id): Promise<number | undefined> => sessions.use(id),
    createServer: createNoticeServer,
    modern: modern.notify,
    clock: deps.clock,
  });
  const sessions: LegacySessions = new LegacySessions({
    baseUrl,
    tokens,
    sessions: sessionStore,
    serve: jsonPerRequest(factory, MAX_BODY_BYTES),
    openStream: (id, expiresAt, request): Promise<Response> => notices.openStream(id, expiresAt, request),
    onUse: (id, expiresAt) => notices.touch(id, expiresAt),
    onSessionStart: (id, claims) => log.info({ session: id.slice(-12), version: claims.pv }, "mcp session started"),
    onEndFailed: (err) => log.warn({ err }, "mcp session DELETE not recorded: session store unreachable"),
    onEnd: (id) => {
      notices.endSession(id);
      log.info({ session: id.slice(-12) }, "mcp session ended");
    },
  });

  let last = store.current;
  const stopWatching = deps.builds.onLive("notifying MCP subscribers", ({ snapshot: next }) => {
    const uris = changedUris(last, next, config.BASE_URL);
    last = next;
    if (uris.length === 0) return;
    log.info({ uris: uris.length }, "content changed: notifying MCP subscribers");
    notices.publish(uris).catch((err: unknown) => log.warn({ err }, "mcp change notices failed"));
  });

  // The SDK's own Node adapter: every answer, JSON or event stream, is written by it.
  const node = toNodeHandler(
    {
      async fetch(request, options) {
        const body = options?.parsedBody;
        if (body !== undefined) bodies.set(request, body);
        const refused = longHeaderRefusal(request, body);
        if (refused) return refused;
        if (await isLegacyRequest(request, body, { maxRequestBodySize: MAX_BODY_BYTES })) {
          return sessions.handle(request, body);
        }
        const method = (body as { method?: unknown } | undefined)?.method;
        // As in the 2025 era (params-guard.ts, resources/subscribe); a disagreeing Mcp-Method is the SDK's header check's to refuse.
        const checked = request.headers.get("mcp-method") === method;
        if (method === "subscriptions/listen") {
          return (checked && listenRefusal(body, store.current, baseUrl)) || listen(request, options);
        }
        const problem = checked ? invalidParams(body, "modern", baseUrl) : undefined;
        if (problem) return rpcErrorResponse(200, -32602, problem, idOf(body));
        return modern.fetch(request, options);
      },
    },
    { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => log.error({ err }, "mcp handler failed") },
  );

  let closed = false;
  const open: RequestHandler = (_req, res, next) => {
    if (closed) return rpcError(res, 503, -32000, "Service Unavailable: the server is shutting down");
    next();
  };

  const empty = emptyBodies();
  // The name a body gives twice in one object, found in its text (JSON.parse keeps the last).
  const givenTwice = new WeakMap<IncomingMessage, string>();
  const post: RequestHandler = async (req, res) => {
    if (empty.has(req))
      return rpcError(res, 400, -32700, "Parse error: the request body is empty; send a JSON-RPC message");
    if (!req.is("application/json")) {
      return rpcError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body: unknown = req.body;
    const problem = bodyProblem(body, MAX_NESTING);
    if (problem && "deep" in problem) {
      return rpcError(res, 400, -32700, `Parse error: the request body nests deeper than ${MAX_NESTING} levels`);
    }
    const twice = givenTwice.get(req);
    const odd =
      problem?.nonIJson ?? nonIJsonHeader(req.headers) ?? (twice === undefined ? undefined : nameGivenTwice(twice));
    if (odd !== undefined) return rpcError(res, 400, -32600, `Invalid Request: ${odd}`);
    if (Array.isArray(body)) {
      const header = req.headers["mcp-protocol-version"];
      const session = tokens.verify(String(req.headers[SESSION_HEADER] ?? ""));
      const version = typeof header === "string" ? header : session.ok ? session.claims.pv : undefined;
      return rpcError(res, 400, -32600, `Invalid Request: ${batchRefusal(body, version)}`);
    }
    const invalid = invalidMessage(body);
    if (invalid) return rpcError(res, 400, -32600, `Invalid Request: ${invalid}`, idOf(body));
    // A listen answers from no build (the SDK keeps only the capabilities for its stream), so it
    // pins none: held for a stream open for days, a retired build's folder and memory would stay.
    if ((body as { method?: unknown }).method === "subscriptions/listen")
      return shares.serve(req, res, idOf(body), () => node(req, res, body));
    const held = store.hold();
    res.once("close", held.release);
    pinned.set(body as object, held.snapshot);
    await node(req, res, body);
  };

  const guard = Router();
  // CORS before the Host check, so a page of an allowed origin can read why its Host was refused
  // (a DNS-rebinding page is same-origin and needs no CORS); a refused Origin gets none.
  guard.use(
    originGuard(config.MCP_ALLOWED_ORIGINS),
    cors(mcpCorsPolicy(config.MCP_ALLOWED_ORIGINS)),
    hostGuard(allowedHostnames(config.BASE_URL)),
  );
  const router = Router();
  router.use(open, acceptAsListed, xGzipAsGzip, utf8CharsetLabels);
  const verify = (req: IncomingMessage, res: unknown, buf: Buffer, charset: string) => {
    empty.verify(req, res, buf);
    utf8Only(buf, charset);
    const twice = duplicateName(buf.toString("utf8"));
    if (twice !== undefined) givenTwice.set(req, twice);
  };
  router.post("/", express.json({ limit: MAX_BODY_BYTES, strict: false, verify }), post);
  const notAllowed: RequestHandler = (_req, res) => {
    res.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
    rpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE");
  };
  // Before GET, which Express would otherwise run for HEAD: a HEAD must not open an event stream.
  router.head("/", notAllowed);
  router.get("/", (req, res) => shares.serve(req, res, null, () => node(req, res)));
  router.delete("/", (req, res) => node(req, res));
  router.all("/", notAllowed);
  // Below /mcp nothing is served; its answer is JSON-RPC too, as every answer from /mcp is read as one.
  router.use((req, res) =>
    rpcError(
      res,
      404,
      -32000,
      `Not Found: nothing is served at ${echoedText(req.baseUrl + req.path)}; the MCP endpoint is /mcp`,
    ),
  );
  router.use(bodyErrors(MAX_BODY_BYTES));

  return {
    guard,
    router,
    get openStreams() {
      return notices.openStreams;
    },
    get openListens() {
      return listen.open;
    },
    async close() {
      closed = true;
      stopWatching();
      await Promise.all([modern.close(), notices.close(), sessionStore.close?.()]);
    },
  };
}
