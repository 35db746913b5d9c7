import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main, type Service } from "../../../sidecar/main.ts";
import { loadConfig } from "../../../src/config.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { deployMarkedFeed } from "../../helpers/deploy-file.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase, type PgServer, startPgServer } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * A deployment that copies a new build into DIST_DIR and restarts the instances, with no ping: each
 * instance serves the new build from its start and its hub distributes it, so the build is live and
 * must be the one recorded in `live_build`, which `/healthz` reports and the other instances catch
 * up with (docs/deployment.md, Every instance converges). `npm run sidecar` runs in this process
 * (`main()`), on a real PostgreSQL.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE_URL = "http://localhost:4321";
if (POSTGRES_UNAVAILABLE && process.env.CI) throw new Error(POSTGRES_UNAVAILABLE);

const discard = new Writable({ write: (_chunk, _enc, done) => done() });

describeWithPackage(POSTGRES_UNAVAILABLE, "a build deployed by restarting the instances", () => {
  let server: PgServer;
  let url: string;
  let dist: string;
  let dataDir: string;
  let pool: pg.Pool;
  const services: Service[] = [];

  const announced = async () => (await pool.query("SELECT version FROM live_build")).rows[0]?.version;

  async function start(): Promise<Service> {
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      BASE_URL,
      DIST_DIR: dist,
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      LOG_LEVEL: "silent",
      BUILD_SYNC_SECONDS: "3600",
    });
    const service = await main({ config, sidecarOnly: true, env: {}, out: discard });
    services.push(service);
    return service;
  }

  beforeAll(async () => {
    const built = await buildSite(FIXTURE, { BASE_URL });
    expect(built.code, built.stderr).toBe(0);
    dist = built.distDir;
    dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-restart-deploy-data-"));
    server = await startPgServer();
    url = await createDatabase(server);
    pool = new pg.Pool({ connectionString: url });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await pool?.end();
    await server?.close();
    await rm(dist, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it("records the new build as live once an instance starts on it", { timeout: 120_000 }, async () => {
    const first = await start();
    const old = first.live.current.build;
    expect(await announced()).toBe(old);
    await first.close();

    // The deployment: a new feed in DIST_DIR, with its ETag in the header manifest; then a restart.
    await deployMarkedFeed(dist, "deployed");
    const second = await start();
    const served = second.live.current.build;
    expect(served).not.toBe(old);

    await second.sync.check();
    expect(await announced()).toBe(served);
    const health = await (await fetch(`${second.url}/healthz`)).json();
    expect(health.build).toBe(await announced());
  });
});
