import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS } from "../../../sidecar/db/migrations.ts";
import { createPool, migrate } from "../../../sidecar/db/postgres.ts";
import { main, type Service } from "../../../sidecar/main.ts";
import { loadConfig } from "../../../src/config.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase, type PgServer, startPgServer } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * An instance started on a database that a newer version has migrated does not know what those
 * migrations added (docs/deployment.md: two versions side by side are not supported), so it must
 * refuse to start, naming the migrations, rather than take requests and write rows the newer
 * instances misread. `npm run sidecar` runs in this process (`main()`), on a real PostgreSQL.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE_URL = "http://localhost:4321";
if (POSTGRES_UNAVAILABLE && process.env.CI) throw new Error(POSTGRES_UNAVAILABLE);

const discard = new Writable({ write: (_chunk, _enc, done) => done() });
const silent = pino({ level: "silent" });

describeWithPackage(POSTGRES_UNAVAILABLE, "a database whose schema is newer than this version", () => {
  let server: PgServer;
  let dist: string;
  let dataDir: string;
  const started: Service[] = [];

  beforeAll(async () => {
    const built = await buildSite(FIXTURE, { BASE_URL });
    expect(built.code, built.stderr).toBe(0);
    dist = built.distDir;
    dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-schema-version-data-"));
    server = await startPgServer();
  }, 300_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
    await server?.close();
    await rm(dist, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (url: string) => {
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      BASE_URL,
      DIST_DIR: dist,
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      LOG_LEVEL: "silent",
    });
    const service = await main({ config, sidecarOnly: true, env: {}, out: discard });
    started.push(service);
    return service;
  };

  it("refuses to start, naming the migrations it does not know", async () => {
    const url = await createDatabase(server);
    const pool = createPool(url, silent);
    try {
      await migrate(pool, silent);
      await pool.query("INSERT INTO schema_migrations (id) VALUES ('999-from-a-newer-version')");
      await expect(start(url)).rejects.toThrow(
        "Cannot start: the database in DATABASE_URL is unusable (its schema is newer than this version: it has migration 999-from-a-newer-version, which this version does not know; run the version that applied it on every instance).",
      );
      expect(await migrate(pool, silent).catch((err: Error) => err.message)).toMatch(/999-from-a-newer-version/);
    } finally {
      await pool.end();
    }
  });

  it("still starts on a database this version migrated", async () => {
    const url = await createDatabase(server);
    const pool = createPool(url, silent);
    try {
      await migrate(pool, silent);
      const service = await start(url);
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      const { rows } = await pool.query<{ id: string }>("SELECT id FROM schema_migrations ORDER BY id");
      expect(rows.map((r) => r.id)).toEqual(MIGRATIONS.map((m) => m.id));
    } finally {
      await pool.end();
    }
  });
});
