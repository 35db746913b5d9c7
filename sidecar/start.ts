import { type Config, ConfigError, loadConfig, withListeningPort } from "../src/config.ts";
import { siteUrls } from "../src/lib/site.ts";
import { createApp } from "./app.ts";
import { watchContent } from "./content-watcher.ts";
import { Hub } from "./hub/hub.ts";
import { createHubRouter } from "./hub/hub-routes.ts";
import { createLogger } from "./logger.ts";
import { createMcpRouter } from "./mcp/mcp-router.ts";
import { listen, reservePort } from "./server.ts";
import { openSharedState, type SharedState } from "./shared-state.ts";
import { buildIsStale, builtForBaseUrl, runBuild } from "./site-build.ts";
import { SnapshotStore } from "./snapshot.ts";

/**
 * `npm start` (everything from one origin, rebuilding on content changes) and `npm run sidecar`
 * (`--sidecar-only`: dynamic routes only, for a deployment where a CDN serves dist/).
 */

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}
const sidecarOnly = process.argv.includes("--sidecar-only");
const logger = createLogger(config.LOG_LEVEL);

// With PORT=0 and no BASE_URL the derived origin needs the real port before the first build.
let reserved: Awaited<ReturnType<typeof reservePort>> | undefined;
if (config.PORT === 0 && !config.baseUrlExplicit) {
  try {
    reserved = await reservePort(0, config.HOST);
  } catch (err) {
    fail(`Cannot listen on ${config.HOST}:0: ${(err as Error).message}`);
  }
  config = withListeningPort(config, reserved.port);
}
// The sidecar serves a build made elsewhere: a derived localhost origin would make the hub refuse
// the build's topics and the MCP Host check refuse its public name.
if (sidecarOnly && !config.baseUrlExplicit) {
  const built = await builtForBaseUrl(config.DIST_DIR).catch(() => undefined);
  if (built !== undefined && built !== config.BASE_URL) {
    fail(
      `BASE_URL is unset, so it would be ${config.BASE_URL}, but ${config.DIST_DIR} was built for ${built}: set BASE_URL=${built}`,
    );
  }
}
// Builds run with the origin this process serves, so permalinks, feeds, `next`, MCP resource URIs
// and hub topics all point here. A review scaffolded a moment ago is left out with a notice instead
// of failing every rebuild until its text is pasted.
const buildEnv = { ...process.env, BASE_URL: config.BASE_URL, UNFINISHED_REVIEWS: "skip" };

if (!sidecarOnly && (await buildIsStale(config.CONTENT_DIR, config.DIST_DIR, config.BASE_URL).catch(() => true))) {
  logger.info(
    { content: config.CONTENT_DIR, dist: config.DIST_DIR },
    "dist/ is missing or older than the content: building",
  );
  // Our hub is not listening yet; it publishes once it starts (below), so the build skips its ping.
  const code = await runBuild({ ...buildEnv, HUB_URL: "off" });
  if (code !== 0) logger.error("the build failed; serving the previous build if there is one");
}

let store: SnapshotStore;
try {
  store = await SnapshotStore.open(config.DIST_DIR);
} catch (err) {
  fail(
    `Cannot start: no usable build in ${config.DIST_DIR} (${(err as Error).message}).\nRun \`npm run build\` first.`,
  );
}

let shared: SharedState | undefined;
try {
  shared = config.DATABASE_URL ? await openSharedState(config, logger) : undefined;
} catch (err) {
  fail(`Cannot start: the database in DATABASE_URL is unusable (${(err as Error).message}).`);
}
// Any instance's publish reaches every instance: each reloads dist/ (shared volume or deploy step).
const builds = shared?.onBuildChanged(async () => {
  await store.reload();
});

const mcp = createMcpRouter({ config, store, logger });
// A publish (from the build hook, the watcher or a deployment's ping) means dist/ changed: reload
// the search index from the same files the hub just hashed.
const hub = new Hub({
  config,
  logger,
  database: shared?.hub,
  onPublish: () => {
    store.reload().catch((err) => logger.error({ err }, "reload after publish failed; keeping the last good build"));
  },
});
await hub.start();
const app = createApp({
  config,
  logger,
  store,
  serveStatic: !sidecarOnly,
  mcp: mcp.router,
  hub: createHubRouter(hub, { rateLimitPerMinute: config.HUB_RATE_LIMIT_PER_MINUTE, logger }),
  databaseReachable: shared?.reachable,
});
let running: Awaited<ReturnType<typeof listen>>;
await reserved?.release();
try {
  running = await listen(app, config.PORT, config.HOST);
} catch (err) {
  fail(`Cannot listen on ${config.HOST}:${config.PORT}: ${(err as Error).message}`);
}

const urls = siteUrls(config.BASE_URL);
const local = running.url;
const lines = [
  `public-reviews listening on ${local} (${sidecarOnly ? "sidecar only" : "single origin"}; public base ${urls.base})`,
  ...(sidecarOnly
    ? []
    : [
        `  ${local}/                         HTML home page`,
        `  ${local}/reviews.json             business, aggregate rating, every review`,
        `  ${local}/insights.json            aspect sentiment, entities, topics, FAQ, summary`,
        `  ${local}/api/feed.json            JSON Feed 1.1 (50 newest)`,
        `  ${local}/feed.xml                 Atom feed (50 newest)`,
        `  ${local}/openapi.json             OpenAPI 3.1 description`,
      ]),
  `  ${local}/api/reviews/search       GET  search (rating, min_rating, since, until, query, mentions_*, limit, offset)`,
  `  ${local}/api/reviews/since/{date} GET  reviews dated on or after a day, with conditional GET`,
  `  ${local}/mcp                      POST MCP (streamable HTTP)`,
  `  ${local}/api/websub/hub           POST WebSub hub`,
  `  ${local}/healthz                  GET  readiness (includes the database with DATABASE_URL)`,
  `  ${local}/livez                    GET  liveness`,
];
process.stdout.write(`${lines.join("\n")}\n`);
// Deliveries owed from before a restart, or for a build made while the hub was down, go out now.
if (!sidecarOnly) await hub.publish();

let watcher: { close(): void } | undefined;
if (!sidecarOnly) {
  watcher = watchContent(
    config.CONTENT_DIR,
    async () => {
      logger.info("content changed: rebuilding");
      // The build hook pings this process's own hub, never a production BASE_URL's.
      const code = await runBuild({ ...buildEnv, HUB_URL: `${running.url}/api/websub/hub` });
      if (code !== 0) {
        logger.error("rebuild failed; still serving the last good build");
        return;
      }
      const s = await store.reload();
      logger.info({ reviews: s.index.size, version: s.version }, "reloaded the new build");
      await hub.publish();
    },
    { onError: (err) => logger.error({ err }, "content watcher error") },
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  watcher?.close();
  // Open MCP SSE streams never end by themselves and would hold the server open for the grace period.
  await Promise.all([running.close(), mcp.close()]);
  await hub.close();
  await builds?.close();
  await shared?.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
