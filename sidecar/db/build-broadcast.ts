import pg from "pg";
import type { Logger } from "pino";

/**
 * "A build is live", from the instance that made it live to every instance (itself included):
 * the build's version is written to the one-row `live_build` table and NOTIFYed in the same
 * statement, so the notice arrives only once the row is committed. An instance whose version
 * differs reloads DIST_DIR, which must already hold the new build (shared volume or deploy step,
 * see docs/deployment.md); one that missed the notice finds the row on its next check
 * (sidecar/build/build-sync.ts).
 */

export const BUILD_CHANNEL = "public_reviews_build";

/** Records `version` as the service's live build and announces it to every listening instance. */
export async function recordLiveBuild(pool: pg.Pool, version: string): Promise<void> {
  await pool.query(
    `WITH w AS (
       INSERT INTO live_build (id, version, updated_at) VALUES (true, $1, now())
       ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, updated_at = now()
       RETURNING version)
     SELECT pg_notify($2, version) FROM w`,
    [version, BUILD_CHANNEL],
  );
}

/** The version last recorded by `recordLiveBuild`, or undefined before the first. */
export async function liveBuildVersion(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ version: string }>("SELECT version FROM live_build WHERE id");
  return rows[0]?.version;
}

export interface BuildListener {
  close(): Promise<void>;
}

/**
 * Holds one dedicated connection LISTENing on BUILD_CHANNEL and calls `onChange` for
 * notifications, one call at a time: notifications that arrive while a call runs are coalesced
 * into one more call. A lost connection is re-established with backoff (1 s doubling to 30 s), and
 * `onChange` runs once after reconnecting, since a notification sent meanwhile was missed.
 */
export function listenForBuilds(url: string, log: Logger, onChange: () => Promise<void>): BuildListener {
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const trigger = () => {
    if (running) {
      again = true;
      return;
    }
    running = onChange()
      .catch((err: unknown) => log.error({ err }, "catching up with the announced build failed"))
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          trigger();
        }
      });
  };

  const connect = async (delayMs: number, reconnecting: boolean) => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, application_name: "public-reviews-listen" });
    client = c;
    const retry = () => {
      if (closed || client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      const next = Math.min(delayMs * 2, 30_000);
      timer = setTimeout(() => void connect(next, true), delayMs);
      timer.unref();
    };
    c.on("error", (err) => {
      log.warn({ err: err.message }, "build-announcement listener lost its connection; reconnecting");
      retry();
    });
    c.on("end", retry);
    c.on("notification", (msg) => {
      if (msg.channel === BUILD_CHANNEL) trigger();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${BUILD_CHANNEL}`);
      if (reconnecting) trigger();
    } catch (err) {
      log.warn({ err: (err as Error).message }, "build-announcement listener cannot connect; retrying");
      retry();
    }
  };
  void connect(1_000, false);

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
      await running;
    },
  };
}
