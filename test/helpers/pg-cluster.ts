import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { Logger } from "pino";
import { createPool, migrate } from "../../sidecar/db/postgres.ts";
import { freePort } from "./free-port.ts";

/**
 * A throwaway PostgreSQL cluster for tests: `initdb` into a temp directory, `pg_ctl start` on a
 * free loopback port, `pg_ctl stop -m immediate` and delete on close. Debian's binaries live under
 * /usr/lib/postgresql/<major>/bin. The server refuses to run as root, so as root (CI) every
 * command runs through `runuser -u postgres`. `TEST_DATABASE_URL` (an existing server the tests
 * may create databases on) skips all of this.
 */

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

export interface PgServer {
  /** `postgres://…` of the `postgres` database; tests create their own databases with `createDatabase`. */
  adminUrl: string;
  /** Stops the server, keeping its data (an outage); `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** The bin directory of the newest installed Debian PostgreSQL, or undefined. */
export async function findPgBin(): Promise<string | undefined> {
  const root = "/usr/lib/postgresql";
  const majors = await readdir(root).catch(() => [] as string[]);
  const newest = majors.filter((m) => /^\d+$/.test(m)).sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(root, newest, "bin") : undefined;
}

/** Why the Postgres suites cannot run here, or undefined when they can. In CI this is an error. */
export async function postgresUnavailable(): Promise<string | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  if (await findPgBin()) return undefined;
  return "no PostgreSQL found: install Debian's postgresql package or set TEST_DATABASE_URL";
}

/**
 * For a file of PostgreSQL suites: why they are skipped here (`describeWithPackage` shows it), or
 * undefined. In CI a missing server is an error, so CI never skips them.
 */
export async function postgresSuitesMissing(): Promise<string | undefined> {
  const missing = await postgresUnavailable();
  if (missing && process.env.CI) throw new Error(`PostgreSQL suites cannot run in CI: ${missing}`);
  return missing;
}

/**
 * util-linux's runuser, by its path: it lives in an sbin folder, which a root shell's PATH may lack
 * (then every Postgres suite failed with "spawn runuser ENOENT").
 */
const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser"].find((p) => existsSync(p)) ?? "runuser";

async function as(bin: string, args: string[]): Promise<void> {
  const [cmd, argv] = isRoot ? [RUNUSER, ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  await run(cmd, argv, { timeout: 60_000 });
}

export async function startPgServer(): Promise<PgServer> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const refuse = async () => {
      throw new Error("an outage cannot be simulated on TEST_DATABASE_URL's server");
    };
    return { adminUrl: external, pause: refuse, resume: refuse, close: async () => {} };
  }
  const bin = await findPgBin();
  if (!bin) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql");
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-pg-"));
  if (isRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const uid = Number(stdout.trim());
    await chown(dir, uid, uid);
  }
  const data = path.join(dir, "data");
  await as(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    as(path.join(bin, "pg_ctl"), ["-D", data, "-l", path.join(dir, "log"), "-o", opts, "-w", "start"]);
  await start();
  const stop = async () => {
    await as(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  // A crashed test run must not leave a server behind.
  process.once("exit", () => {
    const cmd = isRoot ? RUNUSER : path.join(bin, "pg_ctl");
    const argv = ["-D", data, "-m", "immediate", "stop"];
    execFile(cmd, isRoot ? ["-u", "postgres", "--", path.join(bin, "pg_ctl"), ...argv] : argv);
  });
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause: () => as(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]),
    resume: start,
    close: stop,
  };
}

/** A fresh, empty database on `server`; returns its URL. */
export async function createDatabase(server: PgServer, prefix = "pr"): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: server.adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * Fresh migrated databases on one throwaway server, started on first use: `fresh()` returns a
 * pool on a new database, `close()` ends every pool and stops the server.
 */
export function migratedPools(logger: Logger): { fresh(): Promise<pg.Pool>; close(): Promise<void> } {
  let server: PgServer | undefined;
  const pools: pg.Pool[] = [];
  return {
    async fresh() {
      server ??= await startPgServer();
      const pool = createPool(await createDatabase(server), logger);
      pools.push(pool);
      await migrate(pool, logger);
      return pool;
    },
    async close() {
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      await server?.close();
    },
  };
}
