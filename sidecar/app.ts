import express, { type ErrorRequestHandler, type Express, type Router } from "express";
import type { Config } from "../src/config.ts";
import { HttpError } from "./http-error.ts";
import type { Logger } from "./logger.ts";
import { baseHeaders, boundedUrl, cors, perIpRateLimit, requestLog } from "./middleware.ts";
import { reviewsRouter } from "./routes/reviews.ts";
import type { SnapshotStore } from "./snapshot.ts";
import { staticSite } from "./static-site.ts";

export interface AppDeps {
  config: Config;
  logger: Logger;
  store: SnapshotStore;
  /** Serve `dist/` too (single-origin mode). Off for `npm run sidecar` behind a CDN. */
  serveStatic: boolean;
  /** Mounted at /mcp when present. */
  mcp?: Router;
  /** Mounted at /api/websub/hub when present. */
  hub?: Router;
  /** With DATABASE_URL: whether the shared database answers now. Readiness fails without it; liveness does not. */
  databaseReachable?: () => Promise<boolean>;
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
  app.use(boundedUrl, baseHeaders, requestLog(logger), cors);
  // Readiness: a load balancer sends traffic here only while this instance can serve all of it.
  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const snapshot = { reviews: store.current.index.size, version: store.current.version };
    if (!deps.databaseReachable) {
      res.json({ status: "ok", ...snapshot });
      return;
    }
    const up = await deps.databaseReachable();
    res
      .status(up ? 200 : 503)
      .json({ status: up ? "ok" : "degraded", database: up ? "ok" : "unreachable", ...snapshot });
  });
  // Liveness: the process answers. A database outage must not make a supervisor restart every instance.
  app.get("/livez", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.use(perIpRateLimit(config.RATE_LIMIT_PER_MINUTE, (req) => req.path === "/healthz" || req.path === "/livez"));
  app.use(reviewsRouter(() => store.current, config.BASE_URL));
  if (deps.hub) app.use("/api/websub/hub", deps.hub);
  if (deps.mcp) app.use("/mcp", deps.mcp);
  if (deps.serveStatic) app.use(staticSite(store));

  app.use((req, res) => {
    if (req.path.startsWith("/api/") || req.path === "/mcp") {
      res.status(404).json({ error: "not_found", message: `No resource at ${req.path}` });
      return;
    }
    res
      .status(404)
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>Nothing lives at this address. Go to the <a href="/">home page</a>.</p></main></body></html>`,
      );
  });

  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      res.status(err.status).json({ error: err.code, message: err.message, ...err.extra });
      return;
    }
    // Body-parser errors carry an HTTP status and a type; report them without a stack.
    const status = typeof err?.status === "number" && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) logger.error({ err, url: req.originalUrl }, "unhandled error");
    res.status(status).json({
      error: status === 500 ? "internal_error" : String(err.type ?? "bad_request"),
      message: status === 500 ? "Internal server error" : String(err.message),
    });
  };
  app.use(onError);
  return app;
}
