import type { Logger } from "pino";
import { afterAll, beforeAll } from "vitest";
import { createPool, databaseReachable, migrate } from "../../sidecar/db/postgres.ts";
import { PgHubStore } from "../../sidecar/hub/pg-store.ts";
import type { HubDatabase } from "../../sidecar/hub/types.ts";
import { createDatabase, type PgServer, postgresSuitesMissing, startPgServer } from "./pg-cluster.ts";
import { describeWithPackage } from "./system-packages.ts";

/**
 * Runs one hub test suite against each store: SQLite (in-process deliveries on the test's manual
 * clock) and PostgreSQL (pg-boss deliveries, as with DATABASE_URL). Without PostgreSQL on a
 * developer machine the PostgreSQL half is skipped with the reason printed; with `CI` set it
 * fails instead, so CI can never skip it silently.
 */

export type BackendName = "sqlite" | "postgres";

let current: BackendName = "sqlite";
let server: PgServer | undefined;
const databases = new Map<string, string>();

export function currentBackend(): BackendName {
  return current;
}

const unavailable = await postgresSuitesMissing();
/** Why the PostgreSQL suites are skipped here, or undefined when they run. */
export const POSTGRES_UNAVAILABLE = unavailable;

/** Starts (once per test file) the throwaway PostgreSQL server. */
export async function pgServer(): Promise<PgServer> {
  server ??= await startPgServer();
  return server;
}

/** Stops the server `pgServer` started, so that a later file in the same worker starts its own. */
export async function closePgServer(): Promise<void> {
  await server?.close();
  server = undefined;
  databases.clear();
}

/** `describe`s `suite` once per available store; `backend` is its name. */
export function forEachHubStore(suite: (backend: BackendName) => void, only?: BackendName[]): void {
  for (const backend of only ?? (["sqlite", "postgres"] as const)) {
    describeWithPackage(backend === "postgres" ? unavailable : undefined, `${backend} store`, () => {
      beforeAll(() => {
        current = backend;
      });
      afterAll(async () => {
        current = "sqlite";
        if (backend === "postgres") await closePgServer();
      });
      suite(backend);
    });
  }
}

export interface TestHubDatabase {
  database: HubDatabase;
  /** Reads through a connection of its own, so it also works after the hub's pool closed. */
  read<T>(fn: (store: PgHubStore) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** For the postgres backend: a pool on the database belonging to `dataDir` (created on first use). */
export async function openHubDatabase(
  backend: BackendName,
  dataDir: string,
  log: Logger,
): Promise<TestHubDatabase | undefined> {
  if (backend !== "postgres") return undefined;
  let url = databases.get(dataDir);
  if (!url) {
    url = await createDatabase(await pgServer());
    databases.set(dataDir, url);
  }
  const pool = createPool(url, log);
  await migrate(pool, log);
  const database = { pool, url, reachable: () => databaseReachable(pool), superviseSeconds: 1 };
  let closed: Promise<void> | undefined;
  return {
    database,
    async read(fn) {
      const own = createPool(url, log, { max: 1 });
      try {
        return await fn(new PgHubStore(own));
      } finally {
        await own.end();
      }
    },
    close: () => {
      closed ??= pool.end();
      return closed;
    },
  };
}
