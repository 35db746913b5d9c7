import { existsSync } from "node:fs";
import path from "node:path";
import { SqliteHubDb, STORE_FILE } from "../sidecar/hub/sqlite-db.ts";
import type { Subscription, Verification } from "../sidecar/hub/store.ts";
import { ConfigError, loadConfig } from "../src/config.ts";

/**
 * `npm run hub:list [-- --json]`: the hub's subscriptions and pending verifications, read from
 * DATA_DIR/hub.sqlite through a read-only connection (safe while the server runs). Secrets are
 * never printed; only whether one is set.
 */

export interface ListedSubscription extends Omit<Subscription, "secret"> {
  hasSecret: boolean;
}
export interface ListedVerification extends Omit<Verification, "secret"> {
  hasSecret: boolean;
}

export function withoutSecrets(store: SqliteHubDb): {
  subscriptions: ListedSubscription[];
  pending: ListedVerification[];
} {
  const strip = <T extends { secret: string | null }>({ secret, ...rest }: T) => ({
    ...rest,
    hasSecret: secret !== null,
  });
  return { subscriptions: store.subscriptions().map(strip), pending: store.verifications().map(strip) };
}

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

export function formatListing(list: ReturnType<typeof withoutSecrets>): string {
  const lines = [`${list.subscriptions.length} subscription(s)`];
  for (const s of list.subscriptions) {
    lines.push(
      `  ${s.topic}`,
      `    callback   ${s.callback}`,
      `    state      ${s.state}${s.failures ? ` (${s.failures} consecutive failure(s), next attempt ${iso(s.nextAttemptAt)})` : ""}`,
      `    lease      ${s.leaseSeconds} s, expires ${iso(s.expiresAt)}`,
      `    secret     ${s.hasSecret ? "set" : "none"}`,
      `    delivered  ${s.deliveredHash ? `sha256 ${s.deliveredHash.slice(0, 16)}…` : "nothing yet"}`,
    );
  }
  lines.push(`${list.pending.length} pending verification(s)`);
  for (const v of list.pending) {
    lines.push(`  ${v.mode} ${v.topic} → ${v.callback} (requested ${iso(v.requestedAt)})`);
  }
  return `${lines.join("\n")}\n`;
}

if (import.meta.main) {
  let dataDir: string;
  try {
    dataDir = loadConfig().DATA_DIR;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const file = path.join(dataDir, STORE_FILE);
  if (!existsSync(file)) {
    process.stdout.write(`No hub database at ${file}: the hub has never run with this DATA_DIR.\n`);
    process.exit(0);
  }
  const store = new SqliteHubDb(file, { readOnly: true });
  try {
    const list = withoutSecrets(store);
    process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(list, null, 2)}\n` : formatListing(list));
  } finally {
    store.close();
  }
}
