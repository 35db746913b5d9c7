import type { ErrorRequestHandler, RequestHandler, Response } from "express";

/**
 * HTTP-level checks in front of the MCP transport: DNS-rebinding protection (Host), the Origin
 * allowlist with its CORS headers, and JSON-RPC-shaped answers for problems found before a
 * message reaches a session.
 */

/** Writes a JSON-RPC error response with an HTTP status. */
export function rpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id });
}

/** The hostnames `/mcp` answers to: the public BASE_URL host and the loopback names. */
export function allowedHostnames(baseUrl: string): string[] {
  return [...new Set([new URL(baseUrl).hostname, "localhost", "127.0.0.1", "[::1]"])];
}

/**
 * A page on an attacker's domain can resolve that domain to 127.0.0.1 and then talk to a local
 * server as same-origin; its requests still carry the attacker's Host, so any other host is 403.
 * The port is ignored, as a reverse proxy may change it.
 */
export function hostGuard(hostnames: string[]): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host;
    let hostname: string | undefined;
    try {
      hostname = host ? new URL(`http://${host}`).hostname : undefined;
    } catch {
      hostname = undefined;
    }
    if (hostname === undefined || !hostnames.includes(hostname)) {
      rpcError(
        res,
        403,
        -32000,
        `Forbidden: Host ${JSON.stringify(host ?? "")} is not served here; use one of ${hostnames.join(", ")}`,
      );
      return;
    }
    next();
  };
}

function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.trim().toLowerCase();
  }
}

const ALLOW_HEADERS = "Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";

/**
 * CORS for `/mcp`. The data is public and read-only and no credentials are used, so by default
 * (`"*"`) any origin may call it. With a list, a request carrying another `Origin` is refused with
 * 403; requests without `Origin` (non-browser clients) are always let through, as Origin is what a
 * browser adds, not something a server-side client has to send.
 */
export function mcpCors(allowed: "*" | string[]): RequestHandler {
  const list = allowed === "*" ? undefined : new Set(allowed.map(normaliseOrigin));
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (list && origin !== undefined) {
      if (!list.has(normaliseOrigin(origin))) {
        rpcError(
          res,
          403,
          -32000,
          `Forbidden: Origin ${JSON.stringify(origin)} is not allowed; allowed origins are ${[...list].join(", ")}`,
        );
        return;
      }
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.append("Vary", "Origin");
    } else if (!list) {
      res.setHeader("Access-Control-Allow-Origin", "*");
    }
    res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id");
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
      if (req.headers["access-control-request-method"]) {
        res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
        res.setHeader("Access-Control-Allow-Headers", ALLOW_HEADERS);
        res.setHeader("Access-Control-Max-Age", "86400");
      }
      res.status(204).end();
      return;
    }
    next();
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
    const coding = req.headers["content-encoding"];
    if (err?.status === 400 && err.type === undefined && coding !== undefined) {
      rpcError(
        res,
        400,
        -32700,
        `Parse error: the request body could not be decoded as Content-Encoding ${JSON.stringify(coding)} says`,
      );
      return;
    }
    switch (err?.type) {
      case "entity.parse.failed":
        rpcError(res, 400, -32700, "Parse error: the request body is not valid JSON");
        return;
      case "entity.too.large":
        rpcError(res, 413, -32000, `Request body too large: the limit is ${limitBytes} bytes`);
        return;
      case "encoding.unsupported":
      case "charset.unsupported":
        rpcError(res, 415, -32000, `Unsupported Media Type: ${String(err.message)}; send UTF-8 JSON`);
        return;
      default:
        if (typeof err?.type === "string" && err.status >= 400 && err.status < 500) {
          rpcError(res, err.status, -32000, `Bad Request: ${String(err.message)}`);
          return;
        }
        next(err);
    }
  };
}
