import type { Logger } from "pino";
import type { Config } from "../src/config.ts";
import { type BuildListener, listenForBuilds } from "./db/build-broadcast.ts";
import { createPool, databaseReachable, migrate } from "./db/postgres.ts";
import type { HubDatabase } from "./hub/types.ts";
import { PgRevocationStore } from "./mcp/pg-revocation-store.ts";

/**
 * What `DATABASE_URL` turns on, opened once at start-up: the pool, the migrations (run by
 * whichever instance gets the lock first), the hub's shared store and queue, readiness, and the
 * "build changed" listener. Start-up fails when the database is unreachable: an instance that
 * cannot see the shared state must not take traffic as if it were alone.
 */
export interface SharedState {
  hub: HubDatabase;
  reachable(): Promise<boolean>;
  /** Ended MCP session ids, shared by every instance (a DELETE on one holds on all). */
  sessionRevocations: PgRevocationStore;
  /** Calls `reload` whenever any instance publishes a new build. */
  onBuildChanged(reload: () => Promise<void>): BuildListener;
  close(): Promise<void>;
}

export async function openSharedState(
  config: Pick<Config, "DATABASE_URL" | "HUB_QUEUE_SUPERVISE_SECONDS" | "MCP_MAX_SESSIONS">,
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
  const listeners: BuildListener[] = [];
  const sessionRevocations = new PgRevocationStore(pool, { maxEntries: config.MCP_MAX_SESSIONS, logger: log });
  return {
    hub: { pool, url, reachable, superviseSeconds: config.HUB_QUEUE_SUPERVISE_SECONDS },
    reachable,
    sessionRevocations,
    onBuildChanged(reload) {
      const l = listenForBuilds(url, log, reload);
      listeners.push(l);
      return l;
    },
    async close() {
      await Promise.all([...listeners.map((l) => l.close()), sessionRevocations.close()]);
      await pool.end();
    },
  };
}
