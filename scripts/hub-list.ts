import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPool } from "../sidecar/db/postgres.ts";
import { PgHubStore } from "../sidecar/hub/pg-store.ts";
import { SqliteHubDb, STORE_FILE } from "../sidecar/hub/sqlite-db.ts";
import type { Subscription, Verification } from "../sidecar/hub/store.ts";
import { createLogger } from "../sidecar/logger.ts";
import { type Config, ConfigError, loadConfig } from "../src/config.ts";

/**
 * `npm run hub:list [-- --json]`: the hub's subscriptions and pending verifications, read from
 * where the hub keeps them: the PostgreSQL database of DATABASE_URL when it is set, else
 * DATA_DIR/hub.sqlite through a read-only connection (safe while the server runs). Secrets are
 * never printed; only whether one is set.
 */

/**
 * `expired`: the lease has ended, so the hub notifies it no more; the row stays until the hub's
 * next sweep (a hub that is stopped does not sweep).
 */
export interface ListedSubscription extends Omit<Subscription, "secret" | "state"> {
  state: Subscription["state"] | "expired";
  hasSecret: boolean;
}
export interface ListedVerification extends Omit<Verification, "secret"> {
  hasSecret: boolean;
}

export interface Listing {
  subscriptions: ListedSubscription[];
  pending: ListedVerification[];
}

/**
 * The subscriptions and verifications of either store, each secret replaced by whether there is one,
 * and each subscription whose lease ended at or before `now` (ms) marked `expired`.
 */
export async function withoutSecrets(
  store: {
    subscriptions(): Subscription[] | Promise<Subscription[]>;
    verifications(): Verification[] | Promise<Verification[]>;
  },
  now = Date.now(),
): Promise<Listing> {
  const strip = <T extends { secret: string | null }>({ secret, ...rest }: T) => ({
    ...rest,
    hasSecret: secret !== null,
  });
  const lease = (s: Subscription): ListedSubscription => {
    const listed = strip(s);
    return s.expiresAt <= now ? { ...listed, state: "expired" } : listed;
  };
  return {
    subscriptions: (await store.subscriptions()).map(lease),
    pending: (await store.verifications()).map(strip),
  };
}

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

function stateLine(s: ListedSubscription): string {
  if (s.state === "expired") return `expired (lease ended ${iso(s.expiresAt)}; removed when the hub next sweeps)`;
  const failing = s.failures ? ` (${s.failures} consecutive failure(s), next attempt ${iso(s.nextAttemptAt)})` : "";
  return `${s.state}${failing}`;
}

export function formatListing(list: Listing): string {
  const lines = [`${list.subscriptions.length} subscription(s)`];
  for (const s of list.subscriptions) {
    lines.push(
      `  ${s.topic}`,
      // Where the hub sends requests; `--json` has the key (`callback`) as well.
      `    callback   ${s.givenCallback ?? s.callback}`,
      `    state      ${stateLine(s)}`,
      `    lease      ${s.leaseSeconds} s, expires ${iso(s.expiresAt)}`,
      `    secret     ${s.hasSecret ? "set" : "none"}`,
      `    delivered  ${s.deliveredHash ? `sha256 ${s.deliveredHash.slice(0, 16)}…` : "nothing yet"}`,
    );
  }
  lines.push(`${list.pending.length} pending verification(s)`);
  for (const v of list.pending) {
    lines.push(`  ${v.mode} ${v.topic} → ${v.givenCallback ?? v.callback} (requested ${iso(v.requestedAt)})`);
  }
  return `${lines.join("\n")}\n`;
}

/** The listing from the configured store; a sentence instead when there is nothing to read. */
async function listing(config: Config): Promise<Listing | string> {
  if (config.DATABASE_URL) {
    const pool = createPool(config.DATABASE_URL, createLogger("silent"), { max: 1 });
    try {
      return await withoutSecrets(new PgHubStore(pool));
    } catch (err) {
      // 42P01: no such table, the hub has never started against this database.
      if ((err as { code?: string }).code === "42P01")
        return "No hub tables in DATABASE_URL's database: the hub has never run with it.\n";
      throw err;
    } finally {
      await pool.end();
    }
  }
  const file = path.join(config.DATA_DIR, STORE_FILE);
  if (!existsSync(file)) return `No hub database at ${file}: the hub has never run with this DATA_DIR.\n`;
  const store = new SqliteHubDb(file, { readOnly: true });
  try {
    return await withoutSecrets(store);
  } finally {
    store.close();
  }
}

if (import.meta.main) {
  let json: boolean | undefined;
  try {
    ({ json } = parseArgs({ options: { json: { type: "boolean" } }, strict: true }).values);
  } catch (err) {
    process.stderr.write(`hub:list: ${(err as Error).message}\nusage: npm run hub:list [-- --json]\n`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  try {
    const list = await listing(config);
    // A hub that never ran has no subscriptions: --json still prints JSON, and says why on stderr.
    if (typeof list === "string") (json ? process.stderr : process.stdout).write(list);
    const listed = typeof list === "string" ? { subscriptions: [], pending: [] } : list;
    if (json) process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    else if (typeof list !== "string") process.stdout.write(formatListing(list));
  } catch (err) {
    const where = config.DATABASE_URL ? "the database of DATABASE_URL" : path.join(config.DATA_DIR, STORE_FILE);
    process.stderr.write(`hub:list: cannot read ${where}: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
