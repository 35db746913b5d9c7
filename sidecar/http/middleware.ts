import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "../logger.ts";
import { HttpError } from "./error.ts";
import { clientKey, RateLimiter } from "./rate-limit.ts";

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

export const baseHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
};

/** Long URLs are refused before any parsing: the query is bounded, and so is the path. */
export const boundedUrl: RequestHandler = (req, _res, next) => {
  if (req.originalUrl.length > MAX_URL_LENGTH) {
    throw new HttpError(
      414,
      "uri_too_long",
      `The URL is ${req.originalUrl.length} characters; the limit is ${MAX_URL_LENGTH}.`,
    );
  }
  next();
};

/**
 * The data is public and read-only, so any origin may read it. Preflights for GET are answered
 * here; /mcp and the hub add their own methods and headers.
 */
export const cors: RequestHandler = (req, res, next) => {
  // /mcp applies its own Origin allowlist (MCP_ALLOWED_ORIGINS): see sidecar/mcp/http-guards.ts.
  if (req.path === "/mcp" || req.path.startsWith("/mcp/")) return next();
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", "ETag, Last-Modified, Link, Retry-After, Mcp-Session-Id");
  if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
    res.setHeader("Access-Control-Allow-Methods", "GET, HEAD, POST, DELETE, OPTIONS");
    res.setHeader(
      "Access-Control-Allow-Headers",
      "If-None-Match, If-Modified-Since, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
    );
    res.setHeader("Access-Control-Max-Age", "86400");
    res.status(204).end();
    return;
  }
  next();
};

export interface RateLimitOptions {
  limitPerMinute: number;
  /** Take the client address from `req.ip` (X-Forwarded-For through trusted proxies) rather than the socket. */
  trustProxy: boolean;
  /** Requests this limiter does not count: health checks, and routers that carry their own limit. */
  skip?: (req: Request) => boolean;
  /** Writes the 429 itself (the hub answers in plain text); default: the JSON error body. */
  onLimit?: (req: Request, res: Response, retryAfterS: number) => void;
  now?: () => number;
}

/**
 * Per-client fixed window of one minute (see rate-limit.ts), with RateLimit and RateLimit-Policy
 * headers and Retry-After on a 429. The one limiter set-up of the service: the app-wide limit and
 * the hub's own limit both come from here, and the app-wide one skips the hub, so a request is
 * counted by exactly one of them.
 */
export function perIpRateLimit({ limitPerMinute, trustProxy, skip, onLimit, now }: RateLimitOptions): RequestHandler {
  const limiter = new RateLimiter({ limit: limitPerMinute, now });
  const policy = `${limitPerMinute};w=60`;
  return (req, res, next) => {
    if (skip?.(req)) return next();
    const ip = (trustProxy ? req.ip : req.socket.remoteAddress) ?? "";
    const d = limiter.hit(clientKey(ip));
    res.setHeader("RateLimit-Policy", policy);
    res.setHeader("RateLimit", `limit=${d.limit}, remaining=${d.remaining}, reset=${d.resetS}`);
    if (d.allowed) return next();
    if (onLimit) {
      res.setHeader("Retry-After", String(d.resetS));
      onLimit(req, res, d.resetS);
      return;
    }
    throw new HttpError(
      429,
      "rate_limited",
      `Too many requests: the limit is ${limitPerMinute} per minute per client.`,
      {},
      { "Retry-After": String(d.resetS) },
    );
  };
}
