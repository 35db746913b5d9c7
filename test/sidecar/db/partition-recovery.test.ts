import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { deployMarkedFeed } from "../../helpers/deploy-file.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { BASE_URL, type PgDeployment, startPgDeployment, startRelayedSidecar } from "../../helpers/pg-deployment.ts";
import type { SidecarProcess } from "../../helpers/sidecar-process.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";
import type { TcpRelay } from "../../helpers/tcp-relay.ts";

/**
 * After a partition heals, the connections it caught may stay silent (their packets dropped by a
 * lost NAT or firewall state), while new ones work. The instance must recover without a restart
 * (docs/deployment.md, Failure modes): a publish ping, sent again until it is answered, is queued
 * and run, and its build goes live.
 */

const FEED = `${BASE_URL}/feed.xml`;

describeWithPackage(POSTGRES_UNAVAILABLE, "recovery after a partition", () => {
  let deployment: PgDeployment;
  let relay: TcpRelay;
  let sidecar: SidecarProcess;
  let pool: pg.Pool;

  beforeAll(async () => {
    deployment = await startPgDeployment("partition");
    const url = await createDatabase(deployment.server);
    pool = new pg.Pool({ connectionString: url });
    ({ relay, sidecar } = await startRelayedSidecar(deployment, url, { BUILD_SYNC_SECONDS: "3600" }));
  }, 300_000);

  afterAll(async () => {
    await sidecar?.stop();
    await pool?.end();
    await relay?.close();
    await deployment?.close();
  });

  it("queues and runs a publish ping once the partition heals", { timeout: 180_000 }, async () => {
    const health = async () => (await fetch(`${sidecar.url}/healthz`)).json();
    const before = (await health()).build;
    relay.hang();
    const end = Date.now() + 30_000;
    while ((await fetch(`${sidecar.url}/healthz`)).status !== 503 && Date.now() < end);
    relay.heal();
    while ((await fetch(`${sidecar.url}/healthz`)).status !== 200 && Date.now() < end);

    await deployMarkedFeed(deployment.dist, "after the partition");
    // Sent again until it is queued (202), for up to 90 s.
    const queuedBy = Date.now() + 90_000;
    let status = 0;
    while (status !== 202 && Date.now() < queuedBy) {
      const ping = await fetch(`${sidecar.url}/api/websub/hub`, {
        method: "POST",
        body: new URLSearchParams({ "hub.mode": "publish", "hub.url": FEED }),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      status = ping?.status ?? 0;
      if (status !== 202) await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(status, sidecar.output.join("").slice(-3_000)).toBe(202);

    const live = Date.now() + 30_000;
    let served = before;
    while (served === before && Date.now() < live) {
      await new Promise((r) => setTimeout(r, 200));
      served = (await health()).build;
    }
    expect(served, sidecar.output.join("").slice(-3_000)).not.toBe(before);
    const { rows } = await pool.query("SELECT version FROM live_build");
    expect(rows[0]?.version).toBe(served);
  });
});
