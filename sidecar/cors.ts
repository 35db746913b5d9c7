import corsMiddleware from "cors";
import type { RequestHandler } from "express";

/**
 * The service's CORS, the `cors` package with our policies as data. The app applies the public
 * policy to every route but `/mcp`, and the MCP router's guard its own policy to `/mcp`, both
 * before anything else may answer (the URL bound, the rate limiter). It lives
 * outside `http/` and `mcp/` so that neither adapter imports the other.
 *
 * It only writes headers: whether a request from an `Origin` may proceed at all is decided before
 * it (for `/mcp`, the SDK's `validateOriginHeader`; see sidecar/mcp/http-guards.ts).
 */
export interface CorsPolicy {
  /**
   * `"*"`: any origin may read (`Access-Control-Allow-Origin: *`). `"reflect"`: the request's own
   * `Origin` is echoed (with `Vary: Origin`), for an allowlist already checked upstream; a request
   * without `Origin` gets no `Access-Control-Allow-Origin`.
   */
  origin: "*" | "reflect";
  /** `Access-Control-Allow-Methods` of a preflight, or of a preflight for a path, as its `Allow` says. */
  methods: string | ((path: string) => string);
  /** `Access-Control-Allow-Headers` of a preflight. */
  allowHeaders: string;
  /** `Access-Control-Expose-Headers` of every response, the preflight's included. */
  exposeHeaders: string;
  /**
   * The `Allow` of a path: where it gives one, every `OPTIONS` (preflight or not) is answered here
   * with 204 and it; otherwise only a preflight is, and other `OPTIONS` requests go on to the routes.
   */
  allow?: (path: string) => string | undefined;
}

/** Preflight answers may be cached by the browser for a day: the policy changes only with a deployment. */
const MAX_AGE_S = 86_400;

export function cors(policy: CorsPolicy): RequestHandler {
  // `preflightContinue`: the package answers every OPTIONS as a preflight; a plain OPTIONS (no
  // Access-Control-Request-Method) must reach the route, which knows the path's `Allow`.
  const headers = corsMiddleware({
    origin: policy.origin === "*" ? "*" : true,
    // Written below, per path: the package would list one set for every path.
    methods: "",
    allowedHeaders: policy.allowHeaders,
    exposedHeaders: policy.exposeHeaders,
    maxAge: MAX_AGE_S,
    preflightContinue: true,
  });
  return (req, res, next) =>
    headers(req, res, (err?: unknown) => {
      if (err !== undefined) return next(err);
      if (req.method !== "OPTIONS") return next();
      const preflight = req.headers["access-control-request-method"] !== undefined;
      const allow = policy.allow?.(req.path);
      if (!preflight && allow === undefined) return next();
      if (allow !== undefined) res.setHeader("Allow", allow);
      if (preflight) {
        const { methods } = policy;
        res.setHeader("Access-Control-Allow-Methods", typeof methods === "string" ? methods : methods(req.path));
      }
      // The package lists exposed headers on actual responses only; a client that inspects the
      // preflight (as the MCP tests and some SDKs do) sees the same list there.
      res.setHeader("Access-Control-Expose-Headers", policy.exposeHeaders);
      res.status(204).end();
    });
}
