import { STATUS_CODES } from "node:http";
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import { echoedValue } from "../../src/api/echoed-values.ts";
import type { Liveness, Readiness } from "../../src/api/schemas.ts";
import type { Config } from "../../src/config.ts";
import { ijsonValue } from "../../src/content/characters.ts";
import { pathPrefix } from "../../src/site/html-view.ts";
import type { Snapshot } from "../build/snapshot.ts";
import type { SnapshotStore } from "../build/snapshot-store.ts";
import { cors } from "../cors.ts";
import type { Logger } from "../logger.ts";
import { rpcError } from "../mcp/rpc-error.ts";
import { perIpRateLimit } from "../rate-limit.ts";
import { NOTICE_CSS_PATH, noticeCss, type PageNotice } from "./build-notice.ts";
import { matchesAnyRepresentation } from "./conditional.ts";
import { HttpError } from "./error.ts";
import { readOnly } from "./methods.ts";
import { asteriskForm, boundedUrl, HUB_PATH, PUBLIC_CORS, requestLog, requireHost, urlTooLong } from "./middleware.ts";
import { notFound } from "./not-found.ts";
import { reviewRoutes } from "./review-routes.ts";
import { securityHeaders } from "./security-headers.ts";
import { staticSite } from "./static-site.ts";

export interface AppDeps {
  config: Config;
  logger: Logger;
  store: SnapshotStore;
  /** Serve `dist/` too (single-origin mode). Off for `npm run sidecar` behind a CDN. */
  serveStatic: boolean;
  /**
   * MCP at /mcp when present (sidecar/mcp/router.ts): `guard` (Host, Origin, MCP's CORS) runs
   * before the URL bound and the rate limiter, so their answers carry it; `router` is mounted.
   */
  mcp?: { guard: RequestHandler; router: Router };
  /** Mounted at /api/websub/hub when present. */
  hub?: Router;
  /** With DATABASE_URL: whether the shared database answers now. Readiness fails without it; liveness does not. */
  databaseReachable?: () => Promise<boolean>;
  /** One log line per request at info (the default); false logs them at debug only. */
  accessLog?: boolean;
  /** npm start: what the last failed build reported, shown on top of every HTML page until a build succeeds. */
  buildNotice?: () => PageNotice | undefined;
}

/**
 * Builds the Express app; `listen` is separate (see server.ts) so tests run it on port 0.
 * Routes stay thin: parse, call the core, serialise. Errors go through the one handler below.
 */
export function createApp(deps: AppDeps): Express {
  const { config, logger, store } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.TRUST_PROXY);
  // Paths are case-sensitive (RFC 3986), as the checks on `req.path` below and the built files are:
  // otherwise `app.use("/mcp")` would also serve /MCP, under the public policies.
  app.set("case sensitive routing", true);
  const { mcp } = deps;
  const isMcp = (path: string) => path === "/mcp" || path.startsWith("/mcp/");
  const publicCors = cors(PUBLIC_CORS);
  app.use(
    // First, so an answer from any later step (a 400 or 414 included) carries them.
    securityHeaders(),
    requireHost,
    requestLog(logger, deps.accessLog === false ? "debug" : "info"),
    // After the log, so a request for `*` is logged as every other is.
    asteriskForm,
    // CORS before anything else may answer (414, 429): /mcp has its own policy and Origin allowlist.
    (req, res, next) => (mcp && isMcp(req.path) ? mcp.guard(req, res, next) : publicCors(req, res, next)),
    (req, res, next) => {
      // A JSON-RPC client reads any answer from /mcp as a JSON-RPC message, the 414 included.
      const tooLong = mcp && isMcp(req.path) ? urlTooLong(req) : undefined;
      if (tooLong) return rpcError(res, 414, -32000, `URI Too Long: ${tooLong}`);
      boundedUrl(req, res, next);
    },
  );
  // Each request answers from the build that was current when it arrived, and holds it (so its
  // folder stays on disk) until the response is over, however long the client takes to read it.
  // Not /mcp: its router pins what a POST answers from, and a change-notice stream, open for days,
  // answers from no build.
  const pinned = new WeakMap<Response, Snapshot>();
  app.use((req, res, next) => {
    if (mcp && isMcp(req.path)) return next();
    const held = store.hold();
    pinned.set(res, held.snapshot);
    res.once("close", held.release);
    next();
  });
  const snapshotOf = (res: Response) => pinned.get(res) ?? store.current;
  // /healthz is not rate-limited: probes that arrive while one is in flight share its round trip,
  // so a flood of them holds one pool connection, not all of them.
  let probing: Promise<boolean> | undefined;
  const databaseReachable = (probe: () => Promise<boolean>) =>
    (probing ??= probe().finally(() => {
      probing = undefined;
    }));
  // Readiness: a load balancer sends traffic here only while this instance can serve all of it.
  app.get("/healthz", async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    // `build` is the same on every instance serving the same build: a deployment can compare them.
    const { index, version, build } = store.current;
    const snapshot = { reviews: index.size, version, build };
    // Typed by the schema /openapi.json declares, so the two cannot drift.
    if (!deps.databaseReachable) {
      if (matchesAnyRepresentation(req.headers)) return void res.status(304).end();
      res.json({ status: "ok", ...snapshot } satisfies Readiness);
      return;
    }
    const up = await databaseReachable(deps.databaseReachable);
    if (up && matchesAnyRepresentation(req.headers)) return void res.status(304).end();
    res
      .status(up ? 200 : 503)
      .json({ status: up ? "ok" : "degraded", database: up ? "ok" : "unreachable", ...snapshot } satisfies Readiness);
  });
  // Liveness: the process answers. A database outage must not make a supervisor restart every instance.
  app.get("/livez", (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (matchesAnyRepresentation(req.headers)) return void res.status(304).end();
    res.json({ status: "ok" } satisfies Liveness);
  });
  app.all(["/healthz", "/livez"], readOnly);
  app.use(
    perIpRateLimit({
      limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      trustProxy: config.TRUST_PROXY > 0,
      // The hub router counts its own requests (HUB_RATE_LIMIT_PER_MINUTE); health checks are never limited.
      skip: (req) =>
        req.path === "/healthz" || req.path === "/livez" || (deps.hub !== undefined && HUB_PATH.test(req.path)),
      onLimit: (req, res, retryAfterS) => {
        const message = `Too many requests: the limit is ${config.RATE_LIMIT_PER_MINUTE} per minute per client.`;
        // A JSON-RPC client reads any answer from /mcp as a JSON-RPC message.
        if (mcp && isMcp(req.path)) return rpcError(res, 429, -32000, message);
        throw new HttpError(429, "rate_limited", message, {}, { "Retry-After": String(retryAfterS) });
      },
    }),
  );
  // Mounted on the app, not a nested router: one dispatch layer fewer on the hottest requests.
  const reviews = reviewRoutes({ current: snapshotOf, baseUrl: config.BASE_URL });
  app.use(reviews.guard);
  app.get("/api/reviews/search", reviews.search);
  app.get("/api/reviews/since/:date", reviews.since);
  app.all(["/api/reviews/search", "/api/reviews/since/:date"], readOnly);
  if (deps.hub) app.use("/api/websub/hub", deps.hub);
  if (mcp) app.use("/mcp", mcp.router);
  if (deps.serveStatic) {
    if (deps.buildNotice) app.get(NOTICE_CSS_PATH, noticeCss);
    app.use(staticSite(snapshotOf, deps.buildNotice));
  }

  app.use(notFound(snapshotOf, deps.serveStatic, `${pathPrefix(config.BASE_URL)}/`, deps.buildNotice));

  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      // A JSON-RPC client reads any answer from /mcp as a JSON-RPC message (a bad Host's 400).
      if (mcp && isMcp(req.path))
        return rpcError(res, err.status, -32000, `${STATUS_CODES[err.status]}: ${err.message}`);
      // Messages and issues may quote what a client sent: nothing I-JSON (RFC 7493) forbids goes back.
      res.status(err.status).json(ijsonValue({ error: err.code, message: err.message, ...err.extra }));
      return;
    }
    // Body-parser and router errors carry an HTTP status and a type; report them without a stack,
    // in the same `{error, message, issues}` shape as every other 4xx of the API.
    const status = typeof err?.status === "number" && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) {
      logger.error({ err, url: req.originalUrl }, "unhandled error");
      res.status(500).json({ error: "internal_error", message: "Internal server error" });
      return;
    }
    const message = String(err.message);
    res.status(status).json(
      ijsonValue({
        error: String(err.type ?? "bad_request"),
        message,
        issues: [{ path: "(request)", value: echoedValue(req.originalUrl), message }],
      }),
    );
  };
  app.use(onError);
  return app;
}
