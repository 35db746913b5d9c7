import type { RequestHandler } from "express";

/**
 * The one CORS implementation of the service. The app applies the public policy to every route
 * but `/mcp`, and the MCP router applies its own policy to `/mcp`; both are this middleware with
 * different data. It lives outside `http/` and `mcp/` so that neither adapter imports the other.
 *
 * It only writes headers: whether a request from an `Origin` may proceed at all is decided before
 * it (for `/mcp`, the SDK's `validateOriginHeader`; see sidecar/mcp/http-guards.ts).
 */
export interface CorsPolicy {
  /**
   * `"*"`: any origin may read (`Access-Control-Allow-Origin: *`). `"reflect"`: the request's own
   * `Origin` is echoed (with `Vary: Origin`), for an allowlist already checked upstream; a request
   * without `Origin` gets no CORS header.
   */
  origin: "*" | "reflect";
  /** `Access-Control-Allow-Methods` of a preflight. */
  methods: string;
  /** `Access-Control-Allow-Headers` of a preflight. */
  allowHeaders: string;
  /** `Access-Control-Expose-Headers` of every response. */
  exposeHeaders: string;
  /**
   * When set, every `OPTIONS` (preflight or not) is answered here with 204 and this `Allow`;
   * otherwise only a preflight is, and other `OPTIONS` requests go on to the routes.
   */
  allow?: string;
}

/** Preflight answers may be cached by the browser for a day: the policy changes only with a deployment. */
const MAX_AGE_S = "86400";

export function cors(policy: CorsPolicy): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (policy.origin === "*") {
      res.setHeader("Access-Control-Allow-Origin", "*");
    } else if (origin !== undefined) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.append("Vary", "Origin");
    }
    res.setHeader("Access-Control-Expose-Headers", policy.exposeHeaders);
    if (req.method !== "OPTIONS") return next();
    const preflight = Boolean(req.headers["access-control-request-method"]);
    if (!preflight && policy.allow === undefined) return next();
    if (policy.allow !== undefined) res.setHeader("Allow", policy.allow);
    if (preflight) {
      res.setHeader("Access-Control-Allow-Methods", policy.methods);
      res.setHeader("Access-Control-Allow-Headers", policy.allowHeaders);
      res.setHeader("Access-Control-Max-Age", MAX_AGE_S);
    }
    res.status(204).end();
  };
}
