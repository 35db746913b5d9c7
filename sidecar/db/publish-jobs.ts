import { type Db, PgBoss } from "pg-boss";
import type { Logger } from "pino";
import { QUEUE_POOL_OPTIONS } from "./postgres.ts";
import { queueErrorLog } from "./queue-errors.ts";

/**
 * Publish pings as pg-boss jobs, so a 202 from the hub means the ping is in PostgreSQL: the hub
 * answers only once `enqueue` has committed the job, and whichever instance is alive runs it
 * (loads DIST_DIR, distributes the topics). A job's instance sends a heartbeat while it runs; one
 * killed mid-job (SIGKILL, a lost machine) stops sending it, and the queue's supervisor hands the
 * job to another instance. Running a job twice is harmless: loading an unchanged build is a no-op
 * and the hub offers each topic version once.
 *
 * The queue only carries a ping to a live instance. What the ping asks for is retried by
 * `BuildSync` (sidecar/build/build-sync.ts): a build that could not be loaded is still newer in
 * DIST_DIR at its next check, and a distribution that failed is still owed. So `run` does not
 * throw for those, and a job fails only when its instance is lost.
 */

export const PUBLISH_QUEUE = "build-publish";

interface PublishJob {
  /** Topic URLs the ping named. */
  topics: string[];
}

/** pg-boss's smallest heartbeat: a dead instance's job moves on within about this many seconds. */
const HEARTBEAT_SECONDS = 10;

export interface PublishQueue {
  /** Resolves once the ping is committed; rejects when the database refuses it. */
  enqueue(topics: readonly string[]): Promise<void>;
  /** Runs the pings on this instance with `run`, one at a time. */
  work(run: (topics: readonly string[]) => Promise<void>): Promise<void>;
  /** pg-boss's database, whose LISTEN connection the build announcements share (db/build-broadcast.ts). */
  readonly db: Db;
  close(): Promise<void>;
}

/**
 * Starts pg-boss and the queue. `superviseSeconds`: how often the supervisor looks for jobs whose
 * instance stopped sending heartbeats.
 */
export async function openPublishQueue(opts: {
  url: string;
  log: Logger;
  superviseSeconds: number;
}): Promise<PublishQueue> {
  const boss = new PgBoss({
    connectionString: opts.url,
    max: 2,
    ...QUEUE_POOL_OPTIONS,
    application_name: "public-reviews-publish",
    useListenNotify: true,
    schedule: false,
    superviseIntervalSeconds: opts.superviseSeconds,
  });
  boss.on("error", queueErrorLog(opts.log, "publish queue error"));
  await boss.start();
  const options = {
    // Taken only by a job whose instance was lost: the job then runs on another one.
    retryLimit: 8,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 300,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    deleteAfterSeconds: 86_400,
    notify: true,
  };
  await boss.createQueue(PUBLISH_QUEUE, options);
  await boss.updateQueue(PUBLISH_QUEUE, options);
  return {
    db: boss.getDb(),
    async enqueue(topics) {
      const id = await boss.send(PUBLISH_QUEUE, { topics: [...topics] } satisfies PublishJob);
      if (!id) throw new Error("the publish queue did not record the ping");
    },
    async work(run) {
      await boss.work<PublishJob>(
        PUBLISH_QUEUE,
        { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
        async (jobs) => {
          for (const job of jobs) await run(job.data.topics);
        },
      );
    },
    async close() {
      // A job still running is abandoned, not failed: its heartbeat stops and another instance runs it.
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
    },
  };
}
