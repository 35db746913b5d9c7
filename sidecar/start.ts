import { AstroBuildWorker } from "../src/build/astro-worker.ts";
import { type Config, ConfigError, loadConfig, withListeningPort } from "../src/config.ts";
import { logSigningKey } from "../src/io/log-key.ts";
import { logOrigin } from "../src/log/checkpoint.ts";
import { SearchParamsSchema } from "../src/search/query.ts";
import { siteUrls } from "../src/urls.ts";
import { BuildSync, DISTRIBUTE } from "./build/build-sync.ts";
import { watchContent } from "./build/content-watcher.ts";
import { LiveBuild } from "./build/live-build.ts";
import { resultBytesFor } from "./build/result-store.ts";
import { buildIsStale, builtForBaseUrl, SiteBuilds } from "./build/site-build.ts";
import { SnapshotStore } from "./build/snapshot-store.ts";
import { BuildReport } from "./build-report.ts";
import { systemClock } from "./clock.ts";
import { createApp } from "./http/app.ts";
import { listen, reservePort } from "./http/server.ts";
import { Hub } from "./hub/hub.ts";
import { createHubRouter } from "./hub/routes.ts";
import { snapshotTopicReader } from "./hub/topic-source.ts";
import { createLogger, defaultLogFormat } from "./logger.ts";
import { createMcpRouter } from "./mcp/router.ts";
import { openSharedState, type SharedState } from "./shared-state.ts";

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
// Plain lines for a person at a terminal; JSON for a collector, a file or a pipe (docs/configuration.md).
const logger = createLogger(
  config.LOG_LEVEL,
  config.LOG_FORMAT ?? defaultLogFormat({ sidecarOnly, isTTY: process.stdout.isTTY }),
);
// Astro's own output is for debugging a build; an editor reads the report (build-report.ts).
const buildOutput = logger.isLevelEnabled("debug") ? "inherit" : "capture";

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
// of failing every rebuild until its text is pasted. npm start publishes to its own hub itself once
// a build is live (LiveBuild, BuildSync), so its builds ping no hub.
const buildEnv = { ...process.env, BASE_URL: config.BASE_URL, UNFINISHED_REVIEWS: "skip", HUB_URL: "off" };
const report = new BuildReport(logger, config.CONTENT_DIR, buildEnv);
const stop = new AbortController();
// npm start builds into versioned folders and swaps DIST_DIR atomically (site-build.ts), in one
// long-lived build process that keeps Astro loaded between builds (src/build/astro-worker.ts).
const worker =
  sidecarOnly || config.BUILD_WORKER_BUILDS === 0
    ? undefined
    : new AstroBuildWorker({
        limits: { maxBuilds: config.BUILD_WORKER_BUILDS, maxRssBytes: config.BUILD_WORKER_MAX_RSS_MB * 1024 * 1024 },
        signal: stop.signal,
        output: buildOutput,
      });
const builds = sidecarOnly ? undefined : new SiteBuilds(config.DIST_DIR, { worker, output: buildOutput });
let firstBuildMs: number | undefined;
// A build made here at start-up is this instance's to announce (BuildSync.start).
let builtAtStart = false;
if (builds) {
  await builds.adopt();
  // The review log's key is made here, once, not inside a build whose output npm start keeps quiet,
  // so the terminal says that a public deployment must set its own. A bad key fails the build.
  await logSigningKey(config, logOrigin(config.BASE_URL), (m) => logger.warn(m)).catch(() => undefined);
  if (await buildIsStale(config.CONTENT_DIR, config.DIST_DIR, config.BASE_URL).catch(() => true)) {
    logger.info(
      { content: config.CONTENT_DIR, dist: config.DIST_DIR },
      "no build, an old one or one for another origin: building",
    );
    const { dir, result } = await builds.build(buildEnv, stop.signal);
    if (dir) {
      await builds.activate(dir);
      report.succeeded(result);
      firstBuildMs = result.wallMs;
    } else await report.failed(result, new Date());
    builtAtStart = dir !== undefined;
  }
}

// The first rebuild after an edit should find the build worker warm: its warm-up runs beside the
// rest of start-up (a no-op when the build above already ran in it).
builds?.warm(buildEnv, stop.signal);

let store: SnapshotStore;
try {
  store = await SnapshotStore.open(config.DIST_DIR, { resultBytes: resultBytesFor(config) });
} catch (err) {
  fail(
    `Cannot start: no usable build in ${config.DIST_DIR} (${(err as Error).message}).\nRun \`npm run build\` first.`,
  );
}
if (firstBuildMs !== undefined) {
  const s = store.current;
  logger.info({ reviews: s.index.size, dir: s.dir, build_ms: firstBuildMs }, "serving first build");
}
if (builds) {
  // A swapped-out build is deleted once the last request reading it has finished.
  const prune = () => void builds.prune(store.dirsInUse());
  store.onRetire(prune);
  prune();
}

let shared: SharedState | undefined;
try {
  shared = config.DATABASE_URL ? await openSharedState(config, logger) : undefined;
} catch (err) {
  fail(`Cannot start: the database in DATABASE_URL is unusable (${(err as Error).message}).`);
}
// The one owner of "a new build is live": everything below that reacts to a build subscribes to it.
const live = new LiveBuild({ store, logger, builds });
// A failed save's notice holds while the build it was raised over is served (build-report.ts).
report.follow(() => live.current);

// Signed session ids are valid on every instance sharing MCP_SESSION_SECRET; each use and a DELETE
// are recorded in PostgreSQL so they hold on all of them (in memory without DATABASE_URL: one instance).
const mcp = createMcpRouter({ config, store, builds: live, logger, sessions: shared?.mcpSessions });
const hub = new Hub({
  config,
  logger,
  database: shared?.hub,
  readTopic: snapshotTopicReader(() => store.current),
});
await hub.start();
// Takes each build made live here to the hub's subscribers and the other instances, and brings
// this instance to the build another one announced (timer, and PostgreSQL notices).
const sync = new BuildSync({
  live,
  hub,
  cluster: shared?.builds,
  clock: systemClock,
  intervalMs: config.BUILD_SYNC_SECONDS * 1000,
  logger,
});
await sync.start({ announce: builtAtStart });
const announcements = shared?.onBuildAnnounced(() => sync.check());

/**
 * A publish ping after a deployment wrote DIST_DIR: load it (nothing is loaded when it still holds
 * the served build: at 100,000 reviews a load blocks for seconds) and distribute the named topics.
 * Throws when either failed, so a queued ping is tried again; each failure is logged once.
 */
async function completePublish(topics: readonly string[]): Promise<void> {
  const { failed } = await live.goLive("publish", { topics }).catch((err: unknown) => {
    const retried = shared ? "; the ping is tried again" : "";
    logger.error({ err }, `the build in DIST_DIR cannot be loaded; still serving the last good build${retried}`);
    throw err;
  });
  if (failed.includes(DISTRIBUTE)) throw new Error("the build is served but its topics were not distributed");
}
// With DATABASE_URL a ping is a job in PostgreSQL before it is answered 202, and any instance
// completes it; without, this process completes it after the 202 (a crash in between loses it).
const publishJobs = await shared?.publishJobs(completePublish);
const acceptPublish = async (topics: readonly string[]): Promise<void> => {
  if (publishJobs) return publishJobs.enqueue(topics);
  // Already logged by completePublish or LiveBuild.
  completePublish(topics).catch(() => undefined);
};

const app = createApp({
  config,
  logger,
  store,
  serveStatic: !sidecarOnly,
  mcp: mcp.router,
  hub: createHubRouter(hub, {
    rateLimitPerMinute: config.HUB_RATE_LIMIT_PER_MINUTE,
    trustProxy: config.TRUST_PROXY > 0,
    logger,
    publish: acceptPublish,
  }),
  databaseReachable: shared?.reachable,
  // Request lines would drown the one line per build an editor watches for; operators want them.
  accessLog: config.ACCESS_LOG ?? sidecarOnly,
  buildNotice: builds ? () => report.notice : undefined,
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
  `  ${local}/api/reviews/search       GET  search (${Object.keys(SearchParamsSchema.shape).join(", ")})`,
  `  ${local}/api/reviews/since/{date} GET  reviews dated on or after a day, with conditional GET`,
  `  ${local}/mcp                      POST MCP (streamable HTTP)`,
  `  ${local}/api/websub/hub           POST WebSub hub`,
  `  ${local}/healthz                  GET  readiness (includes the database with DATABASE_URL)`,
  `  ${local}/livez                    GET  liveness`,
];
process.stdout.write(`${lines.join("\n")}\n`);
let watcher: { close(): void } | undefined;
if (builds) {
  watcher = watchContent(
    config.CONTENT_DIR,
    async () => {
      logger.debug("content changed: rebuilding");
      const { dir, result } = await builds.build(buildEnv, stop.signal);
      if (!dir) {
        if (!stop.signal.aborted) await report.failed(result, new Date());
        return;
      }
      // A distribution that fails is logged and retried by BuildSync; only a failed load lands here.
      report.succeeded(result);
      await live.goLive("rebuild", { dir, buildMs: result.wallMs }).then(
        () => undefined,
        (err: unknown) => {
          logger.error({ err }, "the new build cannot be loaded; still serving the last good build");
          void builds.prune(store.dirsInUse());
        },
      );
    },
    { onError: (err) => logger.error({ err }, "content watcher error") },
  );
}

let stopping = false;
/**
 * Stops accepting, answers every request already received (an MCP POST still uploading
 * included) with `Connection: close`, then ends MCP sessions and their event streams, the hub and
 * any build in progress. `npm start` runs node through `exec`, so a signal to npm's PID reaches us.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  watcher?.close();
  stop.abort();
  const buildsClosed = builds?.close();
  await running.drain();
  await mcp.close();
  await running.close();
  await sync.close();
  await publishJobs?.close();
  await hub.close();
  await announcements?.close();
  await shared?.close();
  await buildsClosed;
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
