import { body, errorResponse, rateLimitedHeaders, ref } from "./openapi-parts.ts";
import { headersTooLargeBody } from "./schemas.ts";

/**
 * `/mcp` in `/openapi.json`: the streamable HTTP transport of the Model Context Protocol, its three
 * methods and the two headers a client sends after `initialize`. The messages themselves are
 * JSON-RPC and described by the MCP specification, not here; the document types the envelope.
 */

/** An id as `initialize` issues it (sidecar/mcp/session-token.ts), the one docs/mcp.md shows. */
const SESSION_EXAMPLE =
  "eyJ2IjoxLCJleHAiOjE3OTU2NzEwOTI2OTAsInB2IjoiMjAyNS0wNi0xOCIsIm4iOiJiWUF2RUpwTmhjcjRZVFpXIn0.WHHU-2XNiuAF07FlOitWA7ZY1qW9389PeBOy8JkP6MI";

const sessionHeader = (required: boolean, description: string) => ({
  name: "Mcp-Session-Id",
  in: "header",
  required,
  description,
  schema: { type: "string" },
  example: SESSION_EXAMPLE,
});
const protocolHeader = {
  name: "Mcp-Protocol-Version",
  in: "header",
  required: false,
  description:
    "The protocol version negotiated at initialize (e.g. 2025-06-18), on every later request of a session; on every 2026-07-28 request, 2026-07-28, the version its `_meta` names too (required: 400, -32020 without it).",
  schema: { type: "string" },
  example: "2025-06-18",
};

/** 2026-07-28 has each request name its method, and the tool or resource it is for, in headers too (SEP-2243). */
const modernHeaders = [
  {
    name: "Mcp-Method",
    in: "header",
    required: false,
    description:
      "On every 2026-07-28 request: the body's `method` (required there: 400, -32020 without it or when it differs).",
    schema: { type: "string" },
    example: "tools/call",
  },
  {
    name: "Mcp-Name",
    in: "header",
    required: false,
    description:
      "On a 2026-07-28 `tools/call` the body's `params.name`, on `resources/read` its `params.uri` (required there: 400, -32020 without it or when it differs).",
    schema: { type: "string" },
    example: "search_reviews",
  },
];

const rpcError = (description: string, code: number, message: string, headers?: object) => ({
  description,
  ...(headers ? { headers } : {}),
  content: body(ref("JsonRpcError"), { jsonrpc: "2.0", error: { code, message }, id: null }),
});

/** The tools `/mcp` lists (tools/list), named in the POST description; a test compares the two. */
export const MCP_TOOLS = [
  "get_business",
  "search_reviews",
  "get_review",
  "get_reviews_since",
  "get_insights",
  "get_log_checkpoint",
] as const;

const notAcceptable = (accept: string) =>
  rpcError(`The Accept header does not list ${accept}.`, -32000, `Not Acceptable: Client must accept ${accept}`);

const rateLimited = rpcError(
  "Too many requests from this client (RATE_LIMIT_PER_MINUTE); retry after the seconds in Retry-After. The body is a JSON-RPC error, as every answer of /mcp.",
  -32000,
  "Too many requests: the limit is 600 per minute per client.",
  rateLimitedHeaders,
);

/** `Retry-After` of a 503: sent with the two refusals worth repeating, not while the server shuts down. */
const retryAfter = (when: string) => ({
  "Retry-After": {
    description: `Seconds to wait before trying again; sent ${when}, not when the server is shutting down.`,
    required: false,
    schema: { type: "integer" },
    example: 30,
  },
});

const SHUTTING_DOWN = "or the server is shutting down";

/**
 * Past MCP_MAX_STREAMS or the client's MCP_MAX_STREAMS_PER_CLIENT (sidecar/mcp/stream-limit.ts,
 * client-streams.ts): the same answer for a 2025 GET and a 2026-07-28 listen.
 */
const streamCap = (what: string) =>
  rpcError(
    `Too many open change-notice streams (MCP_MAX_STREAMS, or this client's share, MCP_MAX_STREAMS_PER_CLIENT): ${what} is refused until one closes, ${SHUTTING_DOWN}. The JSON-RPC id is the request's (null for a GET).`,
    -32603,
    "Service Unavailable: too many open change-notice streams (at most 100); try again in 30 s",
    retryAfter("past the stream cap"),
  );

const refusals = {
  "400": rpcError(
    "Malformed request or missing Mcp-Session-Id.",
    -32000,
    "Bad Request: Mcp-Session-Id header is required; send initialize first to get one",
  ),
  "403": rpcError("Host or Origin not allowed.", -32000, 'Forbidden: Origin "https://evil.example" is not allowed'),
  "404": rpcError(
    "Unknown, expired or ended session: initialize again.",
    -32001,
    "Session not found: it expired, was ended or never existed; send initialize again",
  ),
  "414": rpcError(
    "The URL is over 4096 characters.",
    -32000,
    "URI Too Long: The URL is 5005 characters; the limit is 4096.",
  ),
  // Refused by Node's parser before the MCP transport sees it: the REST error body, not JSON-RPC.
  "431": errorResponse(
    "The request line and headers together are over 16 KiB (a URL that long included): refused before the request is read, with the service's REST error body, and the connection closed.",
    headersTooLargeBody(),
  ),
  "429": rateLimited,
};

const REQUEST_EXAMPLE = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "search_reviews", arguments: { min_rating: 4, limit: 1 } },
};

export const mcpPathItem = {
  post: {
    operationId: "postMcp",
    tags: ["mcp"],
    summary: "Send a JSON-RPC message (streamable HTTP, protocol 2025-06-18 and newer)",
    description: `JSON-RPC 2.0 over streamable HTTP. Send Accept: application/json, text/event-stream. A 2025-era \`initialize\` returns an Mcp-Session-Id header; send it, with Mcp-Protocol-Version, on every later request; a session expires after MCP_SESSION_TTL_MS (default 24 hours) without use. A body nesting deeper than 64 levels is refused (400, -32700), and so is a string id of more than 256 characters (400, -32600, id null: an answer carries its request's id whole). Tools: ${MCP_TOOLS.join(", ")}.`,
    parameters: [
      sessionHeader(false, "The session from initialize; absent on initialize itself."),
      protocolHeader,
      ...modernHeaders,
    ],
    requestBody: {
      required: true,
      content: body({ type: "object", description: "A JSON-RPC 2.0 request or notification." }, REQUEST_EXAMPLE),
    },
    responses: {
      "200": {
        description: "The JSON-RPC response, as JSON or as an SSE stream.",
        headers: {
          "Mcp-Session-Id": {
            description: "Sent on the answer to a 2025-era initialize only: the session id for later requests.",
            required: false,
            schema: { type: "string" },
            example: SESSION_EXAMPLE,
          },
        },
        content: {
          "application/json": {
            schema: { type: "object", description: "A JSON-RPC 2.0 response." },
            example: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "{}" }] } },
          },
          "text/event-stream": {
            schema: { type: "string" },
            example: 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
          },
        },
      },
      "202": { description: "A notification or response was accepted; no body." },
      ...refusals,
      // 2026-07-28 asks the client to list both types but gives the server no 406.
      "406": rpcError(
        "The Accept header of a 2025-era request does not list both application/json and text/event-stream; a 2026-07-28 request is answered whatever its Accept.",
        -32000,
        "Not Acceptable: Client must accept both application/json and text/event-stream",
      ),
      "413": rpcError(
        "The body is over 64 KiB (65536 bytes).",
        -32000,
        "Request body too large: the limit is 65536 bytes",
      ),
      "415": rpcError(
        "The body is not JSON (Content-Type must be application/json), or is in an unsupported charset or Content-Encoding.",
        -32000,
        "Unsupported Media Type: Content-Type must be application/json",
      ),
      "503": streamCap("a 2026-07-28 `subscriptions/listen`"),
    },
  },
  get: {
    operationId: "getMcpStream",
    tags: ["mcp"],
    summary: "Open the session's server-to-client stream (SSE)",
    description:
      "Server-sent events for a 2025-era session: resource change notices for `resources/subscribe`. Send Accept: text/event-stream.",
    parameters: [sessionHeader(true, "The session from initialize."), protocolHeader],
    responses: {
      "200": {
        description: "An SSE stream of JSON-RPC notifications.",
        content: {
          "text/event-stream": {
            schema: { type: "string" },
            example:
              'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"https://reviews.example.org/reviews.json"}}\n\n',
          },
        },
      },
      ...refusals,
      "406": notAcceptable("text/event-stream"),
      "503": streamCap("the stream"),
    },
  },
  delete: {
    operationId: "deleteMcpSession",
    tags: ["mcp"],
    summary: "End a session",
    description: "Ends a 2025-era session; its id is refused (404) from then on.",
    parameters: [sessionHeader(true, "The session to end."), protocolHeader],
    responses: {
      "200": { description: "The session is ended; no body." },
      ...refusals,
      "503": rpcError(
        `The session store (PostgreSQL with DATABASE_URL) is unreachable, so the session is not ended: send DELETE again after Retry-After; ${SHUTTING_DOWN}.`,
        -32000,
        "Service Unavailable: the session could not be ended because the session store is unreachable; send DELETE again later",
        retryAfter("when the session store is unreachable"),
      ),
    },
  },
};
