import pg from "pg";
import type { Logger } from "pino";

/**
 * "Build changed", from the instance that published a new version to every instance (itself
 * included), over PostgreSQL LISTEN/NOTIFY. The NOTIFY is sent inside the publish transaction
 * (topic-versions.ts), so it arrives only once the version is committed. Each instance then
 * reloads its snapshot of `dist/`, which must already hold the new build (shared volume or
 * deploy step, see docs/deployment.md).
 */

export const BUILD_CHANNEL = "public_reviews_build";

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
      .catch((err: unknown) => log.error({ err }, "reload after a build change failed"))
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
      log.warn({ err: err.message }, "build-change listener lost its connection; reconnecting");
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
      log.warn({ err: (err as Error).message }, "build-change listener cannot connect; retrying");
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
