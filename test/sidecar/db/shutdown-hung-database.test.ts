import { afterAll, beforeAll, expect, it } from "vitest";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { type PgDeployment, startPgDeployment, startRelayedSidecar } from "../../helpers/pg-deployment.ts";
import type { SidecarProcess } from "../../helpers/sidecar-process.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";
import type { TcpRelay } from "../../helpers/tcp-relay.ts";

/**
 * SIGTERM stops `npm run sidecar` and exits 0 (docs/deployment.md, Shutdown) even when PostgreSQL
 * has stopped answering without refusing (a partition, a stalled server): the job queues' shutdown
 * waits on the database, and must not hold the process past its bound. A TCP relay in front of a
 * real PostgreSQL stops forwarding to make the partition.
 */

describeWithPackage(POSTGRES_UNAVAILABLE, "shutdown while PostgreSQL hangs", () => {
  let deployment: PgDeployment;
  let relay: TcpRelay;
  let sidecar: SidecarProcess;

  beforeAll(async () => {
    deployment = await startPgDeployment("hung-shutdown");
    ({ relay, sidecar } = await startRelayedSidecar(deployment, await createDatabase(deployment.server)));
  }, 300_000);

  afterAll(async () => {
    if (sidecar?.child.exitCode === null && sidecar.child.signalCode === null) sidecar.child.kill("SIGKILL");
    await relay?.close();
    await deployment?.close();
  });

  it("exits 0 within 15 s of SIGTERM", { timeout: 90_000 }, async () => {
    expect((await fetch(`${sidecar.url}/healthz`)).status).toBe(200);
    relay.hang();
    // The queues' workers are polling the database when it stops answering.
    await new Promise((r) => setTimeout(r, 2_000));
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => sidecar.child.once("exit", (code) => resolve(code)));
    sidecar.child.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<"still running">((r) => setTimeout(r, 60_000, "still running")),
    ]);
    expect(code, sidecar.output.join("").slice(-2_000)).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
