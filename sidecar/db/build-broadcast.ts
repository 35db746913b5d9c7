import type pg from "pg";
import type { Db } from "pg-boss";
import type { Logger } from "pino";

/**
 * "A build is live", from the instance that made it live to every instance (itself included):
 * the build's identity (`Snapshot.build`) is written to the one-row `live_build` table and
 * NOTIFYed in the same statement, so the notice arrives only once the row is committed. An
 * instance serving another build reloads DIST_DIR, which must already hold the new build (shared
 * volume or deploy step, see docs/deployment.md); one that missed the notice finds the row on its
 * next check (sidecar/build/build-sync.ts).
 */

export const BUILD_CHANNEL = "public_reviews_build";

/** Records `build` as the service's live build and announces it to every listening instance. */
export async function recordLiveBuild(pool: pg.Pool, build: string): Promise<void> {
  await pool.query(
    `WITH w AS (
       INSERT INTO live_build (id, version, updated_at) VALUES (true, $1, now())
       ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, updated_at = now()
       RETURNING version)
     SELECT pg_notify($2, version) FROM w`,
    [build, BUILD_CHANNEL],
  );
}

/** The build last recorded by `recordLiveBuild`, or undefined before the first. */
export async function liveBuild(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ version: string }>("SELECT version FROM live_build WHERE id");
  return rows[0]?.version;
}

export interface BuildListener {
  close(): Promise<void>;
}

/**
 * Calls `onNotice` for each announcement, and once more each time the connection is back (a notice
 * sent meanwhile was missed). The dedicated connection, its heartbeat and its reconnection with
 * backoff are pg-boss's (`Db.listen`, the listener pg-boss wakes its own workers with), so nothing
 * here loops. `onNotice` must coalesce calls itself (`BuildSync.check` does). When the first
 * connection fails, nothing listens and the regular check (BUILD_SYNC_SECONDS) still converges.
 */
export async function listenForBuilds(db: Db, log: Logger, onNotice: () => void): Promise<BuildListener> {
  if (!db.listen) throw new Error("this pg-boss database adapter cannot LISTEN");
  try {
    return await db.listen(BUILD_CHANNEL, onNotice, onNotice);
  } catch (err) {
    log.warn(
      { err: (err as Error).message },
      "build announcements cannot be heard; the regular check still finds each new build",
    );
    return { close: async () => undefined };
  }
}
