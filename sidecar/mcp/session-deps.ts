import type { Config } from "../../src/config.ts";
import type { Logger } from "../logger.ts";
import { sessionSecret } from "./session-secret.ts";
import type { SessionStore } from "./session-store.ts";
import { SqliteSessionStore } from "./sqlite-session-store.ts";

/**
 * What the service gives the MCP router for its 2025-era sessions, so that they outlive a
 * restart: the secret (`MCP_SESSION_SECRET`, or the one kept in `DATA_DIR`) and the store of each
 * session's last use and end (`shared`, PostgreSQL's under `DATABASE_URL`, or SQLite in `DATA_DIR`).
 */
export async function sessionDeps(
  config: Config,
  logger: Logger,
  shared: SessionStore | undefined,
): Promise<{ config: Config; sessions: SessionStore }> {
  const sessions =
    shared ??
    SqliteSessionStore.open(config.DATA_DIR, {
      idleMs: config.MCP_SESSION_TTL_MS,
      maxEntries: config.MCP_MAX_SESSIONS,
    });
  return { config: { ...config, MCP_SESSION_SECRET: await sessionSecret(config, logger) }, sessions };
}
