import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Service } from "../../../sidecar/main.ts";
import { deployMarkedFeed } from "../../helpers/deploy-file.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { type PgDeployment, startInProcess, startPgDeployment } from "../../helpers/pg-deployment.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * A deployment that copies a new build into DIST_DIR and restarts the instances, with no ping: each
 * instance serves the new build from its start and its hub distributes it, so the build is live and
 * must be the one recorded in `live_build`, which `/healthz` reports and the other instances catch
 * up with (docs/deployment.md, Every instance converges). `npm run sidecar` runs in this process
 * (`main()`), on a real PostgreSQL.
 */

describeWithPackage(POSTGRES_UNAVAILABLE, "a build deployed by restarting the instances", () => {
  let deployment: PgDeployment;
  let url: string;
  let pool: pg.Pool;
  const services: Service[] = [];

  const announced = async () => (await pool.query("SELECT version FROM live_build")).rows[0]?.version;

  async function start(): Promise<Service> {
    const service = await startInProcess(deployment, url, { BUILD_SYNC_SECONDS: "3600" });
    services.push(service);
    return service;
  }

  beforeAll(async () => {
    deployment = await startPgDeployment("restart-deploy");
    url = await createDatabase(deployment.server);
    pool = new pg.Pool({ connectionString: url });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await pool?.end();
    await deployment?.close();
  });

  it("records the new build as live once an instance starts on it", { timeout: 120_000 }, async () => {
    const first = await start();
    const old = first.live.current.build;
    expect(await announced()).toBe(old);
    await first.close();

    // The deployment: a new feed in DIST_DIR, with its ETag in the header manifest; then a restart.
    await deployMarkedFeed(deployment.dist, "deployed");
    const second = await start();
    const served = second.live.current.build;
    expect(served).not.toBe(old);

    await second.sync.check();
    expect(await announced()).toBe(served);
    const health = await (await fetch(`${second.url}/healthz`)).json();
    expect(health.build).toBe(await announced());
  });
});
