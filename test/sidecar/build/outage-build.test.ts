import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Service } from "../../../sidecar/main.ts";
import { pingHub } from "../../../src/integrations/hub-ping.ts";
import { deployMarkedFeed } from "../../helpers/deploy-file.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { BASE_URL, type PgDeployment, startInProcess, startPgDeployment } from "../../helpers/pg-deployment.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * A build deployed while PostgreSQL is down is served and distributed once it is back: through the
 * build hook's ping when its retries outlast the outage, and through the instance's own sync check
 * when they do not. `npm run sidecar` runs in this process (`main()`), on a real PostgreSQL.
 */

const FEED = `${BASE_URL}/feed.xml`;
const sha256 = (bytes: string) => createHash("sha256").update(bytes).digest("hex");

describeWithPackage(POSTGRES_UNAVAILABLE, "a build deployed during a database outage", () => {
  let deployment: PgDeployment;
  let service: Service;
  let pool: pg.Pool;

  const announced = async () => (await pool.query("SELECT version FROM live_build")).rows[0]?.version;
  const distributed = async (body: string) =>
    (await pool.query("SELECT 1 FROM hub_topic_versions WHERE topic = $1 AND hash = $2", [FEED, sha256(body)]))
      .rowCount === 1;
  const served = async () => (await (await fetch(`${service.url}/healthz`)).json()).build;

  async function until(what: string, done: () => Promise<boolean>, ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await done().catch(() => false))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    deployment = await startPgDeployment("outage-build");
    const url = await createDatabase(deployment.server);
    service = await startInProcess(deployment, url, {
      // The test runs each check itself, as the timer would.
      BUILD_SYNC_SECONDS: "3600",
      HUB_QUEUE_SUPERVISE_SECONDS: "1",
    });
    pool = new pg.Pool({ connectionString: url });
    // Its idle connections die with each outage; the next query opens new ones.
    pool.on("error", () => undefined);
    await until("the first build recorded", async () => (await announced()) === service.live.current.build);
  }, 300_000);

  afterAll(async () => {
    await pool?.end();
    await service?.close();
    await deployment?.close();
  });

  it("is served once the ping, refused with 503 meanwhile, is tried again after the database is back", async () => {
    const before = service.live.current.build;
    await deployment.server.pause();
    const body = await deployMarkedFeed(deployment.dist, "pinged");
    const waits: number[] = [];
    const ping = pingHub(`${service.url}/api/websub/hub`, [FEED], {
      retryForMs: 60_000,
      sleep: async (ms) => {
        waits.push(ms);
        // The database comes back while the build hook waits (for the hub's Retry-After, 30 s).
        if (waits.length === 1) {
          await deployment.server.resume();
          await until("the instance ready again", async () => (await fetch(`${service.url}/healthz`)).ok);
        }
      },
    });
    const outcome = await ping;
    expect(waits.length).toBeGreaterThan(0);
    expect(outcome).toMatchObject({ ok: true, status: 202 });
    await until("the pinged build served", async () => (await served()) !== before);
    await until("the pinged build recorded", async () => (await announced()) === service.live.current.build);
    expect(await distributed(body)).toBe(true);
  }, 120_000);

  it("is found by the regular check when the ping gave up before the database was back", async () => {
    const before = service.live.current.build;
    await deployment.server.pause();
    const body = await deployMarkedFeed(deployment.dist, "unpinged");
    const outcome = await pingHub(`${service.url}/api/websub/hub`, [FEED]);
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^the hub answered 503/) });
    // A check during the outage serves nothing new: DIST_DIR is read only once the database answers.
    await service.sync.check();
    expect(await served()).toBe(before);
    await deployment.server.resume();
    await until("the found build recorded", async () => {
      await service.sync.check();
      return service.live.current.build !== before && (await announced()) === service.live.current.build;
    });
    expect(await served()).not.toBe(before);
    expect(service.live.current.build).not.toBe(before);
    expect(await announced()).toBe(service.live.current.build);
    expect(await distributed(body)).toBe(true);
  }, 120_000);
});
