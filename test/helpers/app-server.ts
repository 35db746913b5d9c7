import type { Server } from "node:http";
import { LiveBuild } from "../../sidecar/build/live-build.ts";
import { resultBytesFor } from "../../sidecar/build/result-store.ts";
import { SnapshotStore } from "../../sidecar/build/snapshot-store.ts";
import { type AppDeps, createApp } from "../../sidecar/http/app.ts";
import { listen } from "../../sidecar/http/server.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { type Config, loadConfig } from "../../src/config.ts";

export interface TestApp {
  url: string;
  /** The Node server, for tests that watch its connections or requests. */
  server: Server;
  config: Config;
  store: SnapshotStore;
  /** The app's owner of the live build: `live.goLive("publish")` is what a publish ping does. */
  live: LiveBuild;
  close(): Promise<void>;
}

/**
 * Starts the real app on 127.0.0.1 port 0 over a built `distDir`. `routers` lets a test mount the
 * MCP or hub routers built from the same config and store.
 */
export async function startApp(
  distDir: string,
  opts: {
    env?: Record<string, string>;
    serveStatic?: boolean;
    routers?: (deps: {
      config: Config;
      store: SnapshotStore;
      live: LiveBuild;
    }) =>
      | Promise<Pick<AppDeps, "mcp" | "hub" | "buildNotice" | "databaseReachable">>
      | Pick<AppDeps, "mcp" | "hub" | "buildNotice" | "databaseReachable">;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: "silent", ...opts.env, DIST_DIR: distDir });
  const store = await SnapshotStore.open(distDir, { resultBytes: resultBytesFor(config) });
  const logger = createLogger(config.LOG_LEVEL);
  const live = new LiveBuild({ store, logger });
  const extra = opts.routers ? await opts.routers({ config, store, live }) : {};
  const app = createApp({
    config,
    logger,
    store,
    serveStatic: opts.serveStatic ?? true,
    ...extra,
  });
  const running = await listen(app, 0, "127.0.0.1");
  return { url: running.url, server: running.server, config, store, live, close: () => running.close(1000) };
}
