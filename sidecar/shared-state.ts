import type { Logger } from "pino";
import type { Config } from "../src/config.ts";
import type { ClusterBuilds } from "./build/build-sync.ts";
import { type BuildListener, listenForBuilds, liveBuild, recordLiveBuild } from "./db/build-broadcast.ts";
import { createPool, databaseReachable, migrate } from "./db/postgres.ts";
import { openPublishQueue, type PublishQueue } from "./db/publish-jobs.ts";
import type { HubDatabase } from "./hub/types.ts";
import { PgSessionStore } from "./mcp/pg-session-store.ts";

/**
 * What `DATABASE_URL` turns on, opened once at start-up: the pool, the migrations (run by
 * whichever instance gets the lock first), the hub's shared store and queue, readiness, the
 * record of the live build with its announcements, and the queue of publish pings. Start-up
 * fails when the database is unreachable: an instance that cannot see the shared state must not
 * take traffic as if it were alone.
 */
export interface SharedState {
  hub: HubDatabase;
  reachable(): Promise<boolean>;
  /** MCP sessions' last use and end, shared by every instance (a use or a DELETE on one holds on all). */
  mcpSessions: PgSessionStore;
  /** The live build as the instances share it. */
  builds: ClusterBuilds;
  /** Calls `check` whenever any instance announces a build (and after a lost connection is back). */
  onBuildAnnounced(check: () => void): Promise<BuildListener>;
  /** Publish pings as jobs any instance completes (see db/publish-jobs.ts). */
  publishQueue: PublishQueue;
  close(): Promise<void>;
}

export async function openSharedState(
  config: Pick<Config, "DATABASE_URL" | "HUB_QUEUE_SUPERVISE_SECONDS" | "MCP_MAX_SESSIONS" | "MCP_SESSION_TTL_MS">,
  logger: Logger,
): Promise<SharedState> {
  const url = config.DATABASE_URL;
  if (!url) throw new Error("openSharedState needs DATABASE_URL");
  const log = logger.child({ component: "postgres" });
  const pool = createPool(url, log);
  try {
    await migrate(pool, log);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const reachable = () => databaseReachable(pool);
  let publishQueue: PublishQueue;
  try {
    publishQueue = await openPublishQueue({ url, log, superviseSeconds: config.HUB_QUEUE_SUPERVISE_SECONDS });
  } catch (err) {
    await pool.end();
    throw err;
  }
  const listeners: BuildListener[] = [];
  const mcpSessions = new PgSessionStore(pool, {
    idleMs: config.MCP_SESSION_TTL_MS,
    maxEntries: config.MCP_MAX_SESSIONS,
    logger: log,
  });
  return {
    hub: { pool, url, reachable, superviseSeconds: config.HUB_QUEUE_SUPERVISE_SECONDS },
    reachable,
    mcpSessions,
    builds: {
      record: (build) => recordLiveBuild(pool, build),
      announced: () => liveBuild(pool),
      reachable,
    },
    async onBuildAnnounced(check) {
      const l = await listenForBuilds(publishQueue.db, log, check);
      listeners.push(l);
      return l;
    },
    publishQueue,
    async close() {
      await Promise.all([...listeners.map((l) => l.close()), mcpSessions.close()]);
      await publishQueue.close();
      await pool.end();
    },
  };
}
