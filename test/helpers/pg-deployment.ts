import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "vitest";
import { main, type Service } from "../../sidecar/main.ts";
import { loadConfig } from "../../src/config.ts";
import { buildSite } from "./build-site.ts";
import { type PgServer, startPgServer } from "./pg-cluster.ts";
import { type SidecarProcess, startSidecar } from "./sidecar-process.ts";
import { relayedUrl, type TcpRelay } from "./tcp-relay.ts";

/** The public origin the deployment's build is made for. */
export const BASE_URL = "http://localhost:4321";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const discard = new Writable({ write: (_chunk, _enc, done) => done() });

/**
 * What the PostgreSQL deployment suites start from: a build of the basic fixture for `BASE_URL`
 * (the caller may change it, as a deployment does), a DATA_DIR of its own and a throwaway
 * PostgreSQL server. `close` stops the server and removes both folders.
 */
export interface PgDeployment {
  server: PgServer;
  dist: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Makes a `PgDeployment`; `name` names its DATA_DIR (`pr-<name>-data-…`). */
export async function startPgDeployment(name: string): Promise<PgDeployment> {
  const built = await buildSite(FIXTURE, { BASE_URL });
  expect(built.code, built.stderr).toBe(0);
  const dist = built.distDir;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `pr-${name}-data-`));
  const removeFolders = async () => {
    await rm(dist, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  const server = await startPgServer().catch(async (err: unknown) => {
    await removeFolders();
    throw err;
  });
  return {
    server,
    dist,
    dataDir,
    async close() {
      await server.close();
      await removeFolders();
    },
  };
}

/**
 * `npm run sidecar` in this process (`main()`), on 127.0.0.1 port 0 over the deployment's build
 * and DATA_DIR, with the database at `databaseUrl`; `env` adds or overrides settings. It logs nothing.
 */
export async function startInProcess(
  deployment: PgDeployment,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Service> {
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    BASE_URL,
    DIST_DIR: deployment.dist,
    DATA_DIR: deployment.dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "silent",
    ...env,
  });
  return main({ config, sidecarOnly: true, env: {}, out: discard });
}

/**
 * `npm run sidecar` as a child process over the deployment's build and DATA_DIR, reaching the
 * database at `databaseUrl` through a TCP relay a test can hang (a partition) and heal, its hub
 * queues supervised every second, logging warnings; `env` adds or overrides settings.
 */
export async function startRelayedSidecar(
  deployment: PgDeployment,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ relay: TcpRelay; sidecar: SidecarProcess }> {
  const relayed = await relayedUrl(databaseUrl);
  const sidecar = await startSidecar({
    BASE_URL,
    DIST_DIR: deployment.dist,
    DATA_DIR: deployment.dataDir,
    DATABASE_URL: relayed.url,
    HUB_QUEUE_SUPERVISE_SECONDS: "1",
    LOG_LEVEL: "warn",
    ...env,
  }).catch(async (err: unknown) => {
    await relayed.relay.close();
    throw err;
  });
  return { relay: relayed.relay, sidecar };
}
