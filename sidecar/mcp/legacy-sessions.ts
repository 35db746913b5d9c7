import {
  isInitializeRequest,
  type LegacyHttpHandler,
  type McpServerFactory,
  SUPPORTED_PROTOCOL_VERSIONS,
  specTypeSchemas,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { unsupportedVersionResponse } from "./long-headers.ts";
import { idOf } from "./messages.ts";
import { invalidParams } from "./params-guard.ts";
import { type RpcId, rpcErrorResponse } from "./rpc-error.ts";
import type { SessionStore } from "./session-store.ts";
import type { SessionClaims, SessionTokens } from "./session-token.ts";

/**
 * The 2025-era session rules, kept in our code in front of the SDK's per-request legacy serving:
 * `initialize` mints a signed `Mcp-Session-Id`; every later request must carry a valid one whose
 * session was used within the idle timeout and not ended (400 when missing, 404 otherwise, so the
 * client re-initializes), and each such request moves the session's expiry on; `DELETE` ends it;
 * `GET` opens the session's change-notice stream. Each POST is served by a fresh server and
 * transport (`jsonPerRequest`), so nothing grows with the length of a session.
 */

export interface LegacySessionsDeps {
  /** The public origin, which names the resources (params-guard.ts). */
  baseUrl: string;
  tokens: SessionTokens;
  sessions: SessionStore;
  /** Per-request 2025-era serving (fresh server + stateless transport). */
  serve: LegacyHttpHandler;
  /** Opens the change-notice stream of a live session (GET) that expires at `expiresAt` unless used. */
  openStream(sessionId: string, expiresAt: number, request: Request): Promise<Response>;
  /** Called on every use of a live session, with its new expiry. */
  onUse?(sessionId: string, expiresAt: number): void;
  /** Called after a session is ended, to close its stream and forget its subscriptions. */
  onEnd(sessionId: string): void;
  onSessionStart?(sessionId: string, claims: SessionClaims): void;
  /** Called when the session store failed to record a DELETE (answered 503). */
  onEndFailed?(err: unknown): void;
}

export const SESSION_HEADER = "mcp-session-id";

// `id` is the request's, when it has one: JSON-RPC 2.0 answers null only when it could not be read.
const missing = (id: RpcId) =>
  rpcErrorResponse(400, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first to get one", id);
const notFound = (id: RpcId) =>
  rpcErrorResponse(404, -32001, "Session not found: it expired, was ended or never existed; send initialize again", id);

/**
 * An `initialize` sent with a live session's id: initialization is a session's first interaction,
 * and the answer would tell the client a version its session does not record. The SDK's session
 * transport answers it so too.
 */
const alreadyInitialized = (id: RpcId) =>
  rpcErrorResponse(
    400,
    -32600,
    "Invalid Request: this session is already initialized; send initialize without Mcp-Session-Id to start a new one",
    id,
  );

/**
 * Why a DELETE's `Mcp-Protocol-Version` is refused (2025-06-18: an invalid or unsupported one
 * MUST get 400), in the SDK transport's words for a POST or GET; none when absent, as there.
 */
function unsupportedVersion(request: Request): Response | undefined {
  const version = request.headers.get("mcp-protocol-version");
  if (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return unsupportedVersionResponse(version);
}

/** Seconds a client should wait before repeating a DELETE the session store could not record. */
export const REVOKE_RETRY_AFTER_S = 30;

/**
 * The store (PostgreSQL under `DATABASE_URL`) did not record the end: the session is not
 * ended, so the DELETE is not acknowledged; 503 with Retry-After says it is worth repeating.
 */
const revokeUnavailable = () => {
  const res = rpcErrorResponse(
    503,
    -32000,
    "Service Unavailable: the session could not be ended because the session store is unreachable; send DELETE again later",
  );
  res.headers.set("Retry-After", String(REVOKE_RETRY_AFTER_S));
  return res;
};

/**
 * 2025-era serving, one fresh server and stateless transport per POST, as the SDK's
 * `legacyStatelessFallback` does, but answering in JSON: every tool answers at once and sends no
 * progress, so a JSON body is simpler for curl and proxies, and the exchange is over when the
 * response is built (both are torn down just after). A JSON-mode transport that lived for a
 * session kept an entry per POST (modelcontextprotocol/typescript-sdk#2559); one that lives for
 * one POST cannot.
 */
export function jsonPerRequest(factory: McpServerFactory, maxRequestBodySize: number): LegacyHttpHandler {
  return async (request, options) => {
    const server = await factory({ era: "legacy", requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: options?.parsedBody });
    } finally {
      // After the answer is written, not before: closing builds an error object (with its stack)
      // for the requests still open, of which there are none, and the client need not wait for it.
      setImmediate(() => void server.close().catch(() => undefined));
    }
  };
}

export class LegacySessions {
  #deps: LegacySessionsDeps;

  constructor(deps: LegacySessionsDeps) {
    this.#deps = deps;
  }

  /** Serves one 2025-era request; `body` is the parsed POST body. */
  async handle(request: Request, body: unknown): Promise<Response> {
    const headerId = request.headers.get(SESSION_HEADER) ?? "";
    const method = (body as { method?: unknown } | undefined)?.method;
    const problem = request.method === "POST" ? invalidParams(body, "legacy", this.#deps.baseUrl) : undefined;
    const id = idOf(body);
    if (request.method === "POST" && headerId === "" && method === "initialize") {
      // Before a session exists a bad initialize is a bad HTTP request too.
      if (problem) return rpcErrorResponse(400, -32602, problem, id);
      return this.#initialize(request, body);
    }
    if (headerId === "") return missing(id);
    const expiresAt = await this.use(headerId);
    if (expiresAt === undefined) return notFound(id);
    switch (request.method) {
      case "POST":
        if (method === "initialize") return alreadyInitialized(id);
        if (problem) return rpcErrorResponse(200, -32602, problem, id);
        return this.#deps.serve(request, { parsedBody: body });
      case "GET":
        return this.#deps.openStream(headerId, expiresAt, request);
      case "DELETE": {
        // The SDK's transport checks this header on a POST or GET; a DELETE never reaches it.
        const refused = unsupportedVersion(request);
        if (refused) return refused;
        try {
          await this.#deps.sessions.end(headerId, expiresAt);
        } catch (err) {
          this.#deps.onEndFailed?.(err);
          return revokeUnavailable();
        }
        this.#deps.onEnd(headerId);
        return new Response(null, { status: 200 });
      }
      default:
        return rpcErrorResponse(405, -32000, "Method not allowed: use POST, GET or DELETE");
    }
  }

  /**
   * A use of session `id`: its new expiry, or undefined when the id is forged, or its session sat
   * idle past the timeout or was ended. Every served request and each renewal of an open stream
   * is one.
   */
  async use(id: string): Promise<number | undefined> {
    const verified = this.#deps.tokens.verify(id);
    if (!verified.ok) return undefined;
    const expiresAt = await this.#deps.sessions.use(id, verified.claims.exp);
    if (expiresAt !== undefined) this.#deps.onUse?.(id, expiresAt);
    return expiresAt;
  }

  async #initialize(request: Request, body: unknown): Promise<Response> {
    const answer = await this.#deps.serve(request, { parsedBody: body });
    // Refused by the SDK (bad Accept, malformed params: its error names them): no session opened.
    if (answer.status !== 200 || !isInitializeRequest(body)) return answer;
    const { result } = (await answer.clone().json()) as { result?: unknown };
    const reply = specTypeSchemas.InitializeResult["~standard"].validate(result);
    if (reply instanceof Promise || reply.issues) return answer;
    // The version the SDK answered with, so the id records what the client was told.
    const { id, claims } = this.#deps.tokens.issue(reply.value.protocolVersion);
    const headers = new Headers(answer.headers);
    headers.set("Mcp-Session-Id", id);
    this.#deps.onSessionStart?.(id, claims);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  }
}
