import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { shownValue } from "../../src/api/echoed-values.ts";
import { REQUEST_BODY_CODINGS, undecodedCoding, unsupportedCoding } from "../body-codings.ts";
import type { CorsPolicy } from "../cors.ts";
import { rpcError } from "./rpc-error.ts";

/**
 * HTTP-level checks in front of the MCP transport: DNS-rebinding protection (Host), the Origin
 * allowlist with its CORS headers, and JSON-RPC-shaped answers for problems found before a
 * message reaches a session.
 */

/** The hostnames `/mcp` answers to: the public BASE_URL host and the loopback names. */
export function allowedHostnames(baseUrl: string): string[] {
  return [...new Set([new URL(baseUrl).hostname, "localhost", "127.0.0.1", "[::1]"])];
}

/** The media types `/mcp` answers in. */
const MCP_MEDIA_TYPES = ["application/json", "text/event-stream"];

/**
 * The media types of `/mcp` that `accept` lists and does not refuse: each range's type and
 * subtype compared in any letter case (RFC 9110 §8.3.1), and one weighted `q=0` left out, as
 * that means "not acceptable" (§12.4.2). Wildcards are not listings: MCP asks for both types by name.
 */
export function listedMediaTypes(accept: string): string[] {
  const listed = new Set<string>();
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";");
    const name = type.trim().toLowerCase();
    if (!MCP_MEDIA_TYPES.includes(name)) continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    listed.add(name);
  }
  return [...listed];
}

/**
 * `Accept` rewritten as the list of `/mcp`'s media types it accepts (`listedMediaTypes`), for the
 * SDK's 2025-era transport, which looks for `application/json` and `text/event-stream` as
 * substrings: it took `Application/JSON` for no match, and `application/jsonx` or
 * `application/json;q=0` for one. 2026-07-28 serving does not read `Accept`.
 */
export const acceptAsListed: RequestHandler = (req, _res, next) => {
  const accept = req.headers.accept;
  if (accept !== undefined) req.headers.accept = listedMediaTypes(accept).join(", ");
  next();
};

/**
 * A page on an attacker's domain can resolve that domain to 127.0.0.1 and then talk to a local
 * server as same-origin; its requests still carry the attacker's Host, so any other host is 403.
 * The port is ignored, as a reverse proxy may change it. The check is the SDK's own
 * (`validateHostHeader`), so it parses Host exactly as the SDK's adapters do.
 */
export function hostGuard(hostnames: string[]): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host;
    if (!validateHostHeader(host, hostnames).ok) {
      rpcError(
        res,
        403,
        -32000,
        `Forbidden: Host ${shownValue(host ?? "")} is not served here; use one of ${hostnames.join(", ")}`,
      );
      return;
    }
    next();
  };
}

/**
 * The hostnames of `MCP_ALLOWED_ORIGINS`, as the SDK's `validateOriginHeader` compares them: it
 * checks an Origin's hostname (port-agnostic, like the Host check), not the whole origin. An
 * entry that is not a URL is taken as a hostname.
 */
export function originHostnames(origins: string[]): string[] {
  const hostname = (o: string) => {
    try {
      return new URL(o).hostname;
    } catch {
      return o.trim().toLowerCase();
    }
  };
  return [...new Set(origins.map(hostname))];
}

/**
 * With a list (`MCP_ALLOWED_ORIGINS`), a request whose `Origin` names another host is refused with
 * 403; requests without `Origin` (non-browser clients) are let through, as Origin is what a
 * browser adds, not something a server-side client has to send. The check is the SDK's
 * `validateOriginHeader`. With `"*"` (the default: the data is public and read-only, and no
 * credentials are used) every origin may call.
 */
export function originGuard(allowed: "*" | string[]): RequestHandler {
  if (allowed === "*") return (_req, _res, next) => next();
  const hostnames = originHostnames(allowed);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!validateOriginHeader(origin, hostnames).ok) {
      rpcError(
        res,
        403,
        -32000,
        `Forbidden: Origin ${shownValue(origin)} is not allowed; allowed origins are ${allowed.join(", ")}`,
      );
      return;
    }
    next();
  };
}

/** CORS of `/mcp` (sidecar/cors.ts): the allowlist, when there is one, is enforced by `originGuard` first. */
export function mcpCorsPolicy(allowed: "*" | string[]): CorsPolicy {
  return {
    origin: allowed === "*" ? "*" : "reflect",
    methods: "GET, POST, DELETE, OPTIONS",
    // Authorization is ignored, but a browser sends nothing a preflight does not allow: a client
    // that adds a token it was configured with would be refused before the server could ignore it.
    allowHeaders:
      "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID",
    // Retry-After on a 429 or 503, and the quota, readable by a browser client as on every other path.
    exposeHeaders: "Mcp-Session-Id, Retry-After, RateLimit, RateLimit-Policy",
    // The endpoint's own: a path below it is a 404 (router.ts), with no Allow.
    allow: (path) => (path === "/mcp" || path === "/mcp/" ? "GET, POST, DELETE, OPTIONS" : undefined),
  };
}

/**
 * Body-parser failures as JSON-RPC errors; anything else goes on to the app's error handler. A
 * body that does not decode as its `Content-Encoding` says (the decompressor's error, which
 * body-parser passes on untyped as a 400) is a parse error like malformed JSON, and its other 4xx
 * (a body shorter than its Content-Length) are JSON-RPC errors too: JSON-RPC clients read the
 * body of any answer to a POST as a JSON-RPC message.
 */
export function bodyErrors(limitBytes: number): ErrorRequestHandler {
  return (err, req, res, next) => {
    const coding = undecodedCoding(err, req);
    if (coding !== undefined) {
      rpcError(
        res,
        400,
        -32700,
        `Parse error: the request body could not be decoded as Content-Encoding ${shownValue(coding)} says`,
      );
      return;
    }
    switch (err?.type) {
      case "entity.parse.failed":
        rpcError(res, 400, -32700, "Parse error: the request body is not valid JSON");
        return;
      case NOT_UTF8:
        rpcError(res, 400, -32700, "Parse error: the request body is not UTF-8, as JSON text must be (RFC 8259 §8.1)");
        return;
      case "entity.too.large":
        rpcError(res, 413, -32000, `Request body too large: the limit is ${limitBytes} bytes`);
        return;
      case "encoding.unsupported":
      case "charset.unsupported": {
        // RFC 9110 §12.5.3: a 415 for a content coding says which codings are accepted.
        if (err.type === "encoding.unsupported") res.setHeader("Accept-Encoding", REQUEST_BODY_CODINGS);
        // body-parser's own refusal of a charset quotes it whole: both are quoted cut.
        const why =
          err.type === "encoding.unsupported"
            ? unsupportedCoding(err)
            : `unsupported charset ${shownValue(String(err.charset).toUpperCase())}`;
        rpcError(res, 415, -32000, `Unsupported Media Type: ${why}; send UTF-8 JSON`);
        return;
      }
      default:
        if (typeof err?.type === "string" && err.status >= 400 && err.status < 500) {
          rpcError(res, err.status, -32000, `Bad Request: ${String(err.message)}`);
          return;
        }
        next(err);
    }
  };
}

/** body-parser's error type for a body `utf8Only` refused. */
const NOT_UTF8 = "entity.not.utf8";

/**
 * Refuses a body that is not UTF-8, for express.json's `verify`, which sees the bytes before they
 * are decoded and the charset they will be decoded from. RFC 8259 §8.1 and I-JSON (RFC 7493 §2.1)
 * require UTF-8. A body whose bytes are not UTF-8 (a string written in ISO-8859-1, a cut
 * sequence) is a parse error: the decoder would read each bad sequence as U+FFFD, and
 * `{"query":"caf\xE9"}` was searched for as `caf\uFFFD`, found nothing and said nothing. A charset
 * other than UTF-8 is a 415, as body-parser answers one that is not `utf-*`: it passed UTF-16 and
 * UTF-32, whose bytes this check would otherwise call malformed UTF-8 (or not, for ASCII text).
 * Both are answered by `bodyErrors`.
 */
export function utf8Only(buf: Buffer, charset: string): void {
  if (charset !== "utf-8") {
    throw Object.assign(new Error(`unsupported charset ${charset}`), {
      status: 415,
      type: "charset.unsupported",
      charset,
    });
  }
  if (!isUtf8(buf)) throw Object.assign(new Error("the request body is not UTF-8"), { type: NOT_UTF8 });
}

/**
 * Tells an empty POST body from `{}`: express.json reads a body of 0 bytes as `{}`, and skips a
 * request with no body at all (neither Content-Length nor Transfer-Encoding), so that `req.is()`
 * is null and the JSON type looked missing. Either is a body that is not JSON. `verify` goes to
 * express.json, which calls it with each body it reads, decoded.
 */
export function emptyBodies() {
  const empty = new WeakSet<IncomingMessage>();
  return {
    verify(req: IncomingMessage, _res: unknown, buf: Buffer): void {
      if (buf.length === 0) empty.add(req);
    },
    has(req: IncomingMessage): boolean {
      const { headers } = req;
      return empty.has(req) || (headers["content-length"] === undefined && headers["transfer-encoding"] === undefined);
    },
  };
}
