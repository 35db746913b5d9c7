import { distDirProblem } from "../src/build/astro-build.ts";
import { AstroBuildWorker } from "../src/build/astro-worker.ts";
import { distHolder } from "../src/build/dist-holder.ts";
import { type Config, withListeningPort } from "../src/config.ts";
import { logSigningKey } from "../src/io/log-key.ts";
import { logOrigin } from "../src/log/checkpoint.ts";
import { SearchParamsSchema } from "../src/search/query.ts";
import { siteUrls } from "../src/urls.ts";
import { buildIsStale, builtForBaseUrl } from "./build/build-staleness.ts";
import { BuildSync } from "./build/build-sync.ts";
import { watchContent } from "./build/content-watcher.ts";
import { LiveBuild } from "./build/live-build.ts";
import { resultBytesFor } from "./build/result-store.ts";
import { SiteBuilds } from "./build/site-build.ts";
import { BuildReport, startFailure } from "./build-report.ts";
import { systemClock } from "./clock.ts";
import { closeInOrder } from "./close-in-order.ts";
import { createApp } from "./http/app.ts";
import { listen, reservePort } from "./http/server.ts";
import { Hub } from "./hub/hub.ts";
import { createHubRouter } from "./hub/routes.ts";
import { snapshotTopicReader } from "./hub/topic-source.ts";
import { createLogger, defaultLogFormat, type Logger } from "./logger.ts";
import { createMcpRouter } from "./mcp/router.ts";
import { sessionDeps } from "./mcp/session-deps.ts";
import { openSharedState, type SharedState } from "./shared-state.ts";

/** A start-up failure an operator can act on: start.ts prints the message alone and exits 1. */
export class StartError extends Error {
  override name = "StartError";
}

/** What a running service hands back: where it listens, its parts, and the one way to stop it. */
export interface Service {
  /** `http://host:port` it listens on. */
  url: string;
  config: Config;
  logger: Logger;
  live: LiveBuild;
  sync: BuildSync;
  hub: Hub;
  /**
   * Stops accepting, answers every request already received (an MCP POST still uploading
   * included) with `Connection: close`, then ends MCP sessions and their event streams, the hub
   * and any build in progress. Idempotent.
   */
  close(): Promise<void>;
}

export interface MainOptions {
  config: Config;
  /** `npm run sidecar`: dynamic routes only, for a deployment where a CDN serves dist/. */
  sidecarOnly: boolean;
  /** The environment builds inherit. */
  env: NodeJS.ProcessEnv;
  /** Where the start-up lines go; logs go to stdout. */
  out: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `npm start` (everything from one origin, rebuilding on content changes) and `npm run sidecar`:
 * builds when DIST_DIR is missing or stale (npm start), makes the build live, opens the shared
 * state, starts the hub and listens. Throws `StartError` for what an operator must fix.
 */
export async function main(opts: MainOptions): Promise<Service> {
  let { config } = opts;
  const { sidecarOnly } = opts;
  // Plain lines for a person at a terminal; JSON for a collector, a file or a pipe (docs/configuration.md).
  const logger = createLogger(
    config.LOG_LEVEL,
    config.LOG_FORMAT ?? defaultLogFormat({ sidecarOnly, isTTY: opts.out.isTTY === true }),
  );
  // Astro's own output is for debugging a build; an editor reads the report (build-report.ts).
  const buildOutput = logger.isLevelEnabled("debug") ? "inherit" : "capture";

  // With PORT=0 and no BASE_URL the derived origin needs the real port before the first build.
  let reserved: Awaited<ReturnType<typeof reservePort>> | undefined;
  if (config.PORT === 0 && !config.baseUrlExplicit) {
    reserved = await reservePort(0, config.HOST).catch((err: unknown) => {
      throw new StartError(`Cannot listen on ${config.HOST}:0: ${(err as Error).message}`);
    });
    config = withListeningPort(config, reserved.port);
  }
  // The sidecar serves a build made elsewhere: a derived localhost origin would make the hub refuse
  // the build's topics and the MCP Host check refuse its public name.
  if (sidecarOnly && !config.baseUrlExplicit) {
    const built = await builtForBaseUrl(config.DIST_DIR).catch(() => undefined);
    if (built !== undefined && built !== config.BASE_URL) {
      throw new StartError(
        `BASE_URL is unset, so it would be ${config.BASE_URL}, but ${config.DIST_DIR} was built for ${built}: set BASE_URL=${built}`,
      );
    }
  }
  // Builds run with the origin this process serves, so permalinks, feeds, `next`, MCP resource URIs
  // and hub topics all point here. A review scaffolded a moment ago is left out with a notice instead
  // of failing every rebuild until its text is pasted. npm start distributes each build it makes
  // live itself (BuildSync), so its builds ping no hub.
  const buildEnv = { ...opts.env, BASE_URL: config.BASE_URL, UNFINISHED_REVIEWS: "skip", HUB_URL: "off" };
  const report = new BuildReport(logger);
  const stop = new AbortController();
  // Builds go into versioned folders and DIST_DIR is swapped atomically (site-build.ts), in one
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
  let built: { dir: string; buildMs: number } | undefined;
  // A first build that failed: reported once it is known whether an earlier build can be served.
  let unbuilt: Parameters<BuildReport["failed"]>[0] | undefined;
  if (builds) {
    // A second npm start on one DIST_DIR (its port taken, another PORT) would take the first's
    // record, so `npm run build` could write into the served build, and swap its link.
    const problem = distDirProblem(config);
    if (problem) throw new StartError(`Cannot start: ${problem}`);
    const holder = distHolder(config.DIST_DIR, { linked: false });
    if (holder !== undefined)
      throw new StartError(
        `Cannot start: ${config.DIST_DIR} is served by another npm start (process ${holder}); stop it, or give this one a DIST_DIR of its own`,
      );
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
        report.succeeded(result);
        built = { dir, buildMs: result.wallMs };
      } else unbuilt = result;
    }
  }
  // The first rebuild after an edit should find the build worker warm: its warm-up runs beside the
  // rest of start-up (a no-op when the build above already ran in it).
  builds?.warm(buildEnv, stop.signal);

  // The one owner of "a new build is live": everything below that reacts to a build subscribes to it.
  const live = await LiveBuild.open({
    distDir: config.DIST_DIR,
    resultBytes: resultBytesFor(config),
    logger,
    builds,
    built,
  }).catch((err: unknown) => {
    stop.abort();
    throw new StartError(
      unbuilt
        ? startFailure(unbuilt, config.DIST_DIR)
        : `Cannot start: no usable build in ${config.DIST_DIR} (${(err as Error).message}).\nRun \`npm run build\` first.`,
    );
  });
  if (unbuilt) report.failed(unbuilt, true);
  const store = live.store;
  if (builds) {
    // A swapped-out build is deleted once the last request reading it has finished.
    const prune = () => builds.prune(store.dirsInUse());
    store.onRetire(() => void prune());
    // Then, when the start left no spare folder, one for the first save (SiteBuilds.prepareSpare).
    void prune().then(() => builds.prepareSpare());
  }

  let shared: SharedState | undefined;
  try {
    shared = config.DATABASE_URL ? await openSharedState(config, logger) : undefined;
  } catch (err) {
    stop.abort();
    throw new StartError(`Cannot start: the database in DATABASE_URL is unusable (${(err as Error).message}).`);
  }
  // A failed save's notice holds while the build it was raised over is served (build-report.ts).
  report.follow(() => live.current);

  // Signed session ids are valid on every instance sharing MCP_SESSION_SECRET; a DELETE is recorded
  // in PostgreSQL so it holds on all of them (in SQLite without DATABASE_URL: one instance).
  const sessions = await sessionDeps(config, logger, shared?.mcpSessions);
  const mcp = createMcpRouter({ ...sessions, store, builds: live, logger });
  const hub = new Hub({ config, logger, database: shared?.hub, readTopic: snapshotTopicReader(() => live.current) });
  await hub.start();
  // Takes each build made live here to the hub's subscribers and the other instances, and brings
  // this instance to the build another one announced or DIST_DIR holds (timer, and PostgreSQL notices).
  const sync = new BuildSync({
    live,
    hub,
    cluster: shared?.builds,
    clock: systemClock,
    intervalMs: config.BUILD_SYNC_SECONDS * 1000,
    logger,
  });
  await sync.start();
  await shared?.onBuildAnnounced(() => void sync.check());
  // With DATABASE_URL a ping is a job in PostgreSQL before it is answered 202, and any instance
  // completes it; without, this process completes it after the 202 (a crash in between loses it).
  const queue = shared?.publishQueue;
  await queue?.work((topics) => sync.publish(topics));
  const acceptPublish = async (topics: readonly string[]): Promise<void> => {
    if (queue) return queue.enqueue(topics);
    void sync.publish(topics);
  };

  const app = createApp({
    config,
    logger,
    store,
    serveStatic: !sidecarOnly,
    mcp,
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
  await reserved?.release();
  const running = await listen(app, config.PORT, config.HOST).catch(async (err: unknown) => {
    stop.abort();
    await Promise.all([sync.close(), hub.close(), mcp.close()]);
    await shared?.close();
    throw new StartError(`Cannot listen on ${config.HOST}:${config.PORT}: ${(err as Error).message}`);
  });
  opts.out.write(`${listeningBanner(running.url, config.BASE_URL, sidecarOnly).join("\n")}\n`);

  const watcher = builds
    ? watchContent(
        config.CONTENT_DIR,
        async () => {
          logger.debug("content changed: rebuilding");
          // The dataset is read (and the search index built) while the build finishes.
          const { dir, result } = await builds.build(buildEnv, stop.signal, (file) => store.prepare(file));
          if (!dir) {
            store.prepare(undefined);
            if (!stop.signal.aborted) report.failed(result);
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
      )
    : undefined;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      watcher?.close();
      stop.abort();
      const buildsClosed = builds?.close();
      await running.drain();
      await mcp.close();
      await running.close();
      // No publish job may start on a hub that is closing; shared's close also ends the listener.
      await closeInOrder([sync, queue, hub, shared]);
      await buildsClosed;
    })();
    return closing;
  };
  return { url: running.url, config, logger, live, sync, hub, close };
}

/** The lines `npm start` prints once it listens: where each public route is. */
function listeningBanner(local: string, baseUrl: string, sidecarOnly: boolean): string[] {
  const urls = siteUrls(baseUrl);
  return [
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
}
