import { randomUUID } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { echoedValue } from "../../src/api/echoed-values.ts";
import type { CorsPolicy } from "../cors.ts";
import type { Logger } from "../logger.ts";
import { HttpError } from "./error.ts";

/** Cross-cutting HTTP behaviour shared by every route. Each export is one concern. */

export const MAX_URL_LENGTH = 4096;

/**
 * One structured line per request, at completion, with its duration, at `level`: `info` for an
 * access log, `debug` where request lines would drown what a person watches for (`npm start`).
 * When the logger would drop the line, nothing is timed, allocated or listened for.
 */
export function requestLog(logger: Logger, level: "info" | "debug" = "info"): RequestHandler {
  if (!logger.isLevelEnabled(level)) return (_req, _res, next) => next();
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    const id = randomUUID();
    res.on("finish", () => {
      logger[level](
        {
          req_id: id,
          method: req.method,
          url: req.originalUrl.slice(0, 512),
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - start) / 1e6,
          ip: req.ip,
        },
        "request",
      );
    });
    next();
  };
}

/** `uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 3986 §3.2.2): an IP literal, or reg-name / IPv4 characters. */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;

/**
 * RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host, and to any request
 * with more than one Host line or an invalid one. Node keeps only the first of several, and its
 * own refusal is an empty 400; this one says what is wrong, in the API's `{error, message, issues}`.
 */
export const requireHost: RequestHandler = (req, _res, next) => {
  const lines: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === "host") lines.push(req.rawHeaders[i + 1] ?? "");
  }
  const refuse = (value: unknown, message: string) => {
    throw new HttpError(400, "bad_request", message, {
      issues: [{ path: "Host", value: echoedValue(value), message }],
    });
  };
  if (lines.length === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    refuse(null, "The request has no Host header, which HTTP/1.1 requires (RFC 9112 §3.2).");
  }
  if (lines.length > 1) {
    refuse(lines, `The request has ${lines.length} Host header lines; exactly one is allowed (RFC 9112 §3.2).`);
  }
  const host = lines[0];
  if (host !== undefined && !HOST_VALUE.test(host)) {
    refuse(host, `The Host header ${JSON.stringify(host)} is not a valid host[:port] (RFC 9112 §3.2).`);
  }
  next();
};

/**
 * The request target `*` names the server as a whole and is only for OPTIONS (RFC 9112 §3.2.4),
 * a no-op ping (RFC 9110 §9.3.7): 204. With any other method it names nothing, so it is a 400
 * rather than the HTML 404 page of a missing file.
 */
export const asteriskForm: RequestHandler = (req, res, next) => {
  if (req.url !== "*") return next();
  if (req.method === "OPTIONS") {
    res.status(204).end();
    return;
  }
  const message = `The request target * is only for OPTIONS (RFC 9112 §3.2.4), not ${req.method}.`;
  throw new HttpError(400, "bad_request", message, { issues: [{ path: "(request)", value: "*", message }] });
};

/** Why the request's URL is too long to be served, or undefined when it is not. */
export function urlTooLong(req: Request): string | undefined {
  const length = req.originalUrl.length;
  return length > MAX_URL_LENGTH ? `The URL is ${length} characters; the limit is ${MAX_URL_LENGTH}.` : undefined;
}

/** Long URLs are refused before any parsing: the query is bounded, and so is the path. */
export const boundedUrl: RequestHandler = (req, _res, next) => {
  const tooLong = urlTooLong(req);
  if (tooLong) throw new HttpError(414, "uri_too_long", tooLong);
  next();
};

/** The WebSub hub's path (sidecar/hub/routes.ts), the one public path that takes POST. */
export const HUB_PATH = /^\/api\/websub\/hub\/?$/;

/**
 * CORS of every route but `/mcp` (sidecar/cors.ts): the data is public and read-only, so any
 * origin may read it. Preflights are answered here; `/mcp` has its own policy and Origin allowlist
 * (sidecar/mcp/http-guards.ts).
 */
export const PUBLIC_CORS: CorsPolicy = {
  origin: "*",
  // What the path's `Allow` says (the hub router's, `methodNotAllowed`'s), so a preflight promises no more.
  methods: (path) => (HUB_PATH.test(path) ? "POST, OPTIONS" : "GET, HEAD, OPTIONS"),
  // Authorization too: it is ignored, and a preflight that did not allow it kept a browser from sending the request.
  allowHeaders:
    "If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since, Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
  // Every response header a script may need: validators, WebSub discovery and the rate limit.
  exposeHeaders: "ETag, Last-Modified, Link, Retry-After, RateLimit, RateLimit-Policy, Mcp-Session-Id",
};
