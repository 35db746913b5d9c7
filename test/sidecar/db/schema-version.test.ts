import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS } from "../../../sidecar/db/migrations.ts";
import { createPool, migrate } from "../../../sidecar/db/postgres.ts";
import type { Service } from "../../../sidecar/main.ts";
import { POSTGRES_UNAVAILABLE } from "../../helpers/hub-backends.ts";
import { createDatabase } from "../../helpers/pg-cluster.ts";
import { type PgDeployment, startInProcess, startPgDeployment } from "../../helpers/pg-deployment.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * An instance started on a database that a newer version has migrated does not know what those
 * migrations added (docs/deployment.md: two versions side by side are not supported), so it must
 * refuse to start, naming the migrations, rather than take requests and write rows the newer
 * instances misread. `npm run sidecar` runs in this process (`main()`), on a real PostgreSQL.
 */

const silent = pino({ level: "silent" });

describeWithPackage(POSTGRES_UNAVAILABLE, "a database whose schema is newer than this version", () => {
  let deployment: PgDeployment;
  const started: Service[] = [];

  beforeAll(async () => {
    deployment = await startPgDeployment("schema-version");
  }, 300_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
    await deployment?.close();
  });

  const start = async (url: string) => {
    const service = await startInProcess(deployment, url);
    started.push(service);
    return service;
  };

  it("refuses to start, naming the migrations it does not know", async () => {
    const url = await createDatabase(deployment.server);
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
    const url = await createDatabase(deployment.server);
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
