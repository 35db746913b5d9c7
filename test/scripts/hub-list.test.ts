import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPool, migrate } from "../../sidecar/db/postgres.ts";
import { PgHubStore } from "../../sidecar/hub/pg-store.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { isVerification, type Subscriber, startSubscriber } from "../helpers/https-subscriber.ts";
import { type Harness, startHarness, TOPICS } from "../helpers/hub-harness.ts";
import { ManualClock } from "../helpers/manual-clock.ts";
import { createDatabase, postgresUnavailable, startPgServer } from "../helpers/pg-cluster.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

const run = promisify(execFile);
const tls = inject("testTls");
const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/hub-list.ts");
const SECRET = "do-not-print-this-secret";

let h: Harness;
let sub: Subscriber;

function hubList(dataDir: string, ...args: string[]) {
  return run(process.execPath, [SCRIPT, ...args], { env: { ...process.env, DATA_DIR: dataDir, BASE_URL: "" } });
}

beforeAll(async () => {
  // The pending verification must outlive every listing below, however loaded the machine is.
  // On the real time: hub:list judges leases by the system clock.
  h = await startHarness({ env: { HUB_DELIVERY_TIMEOUT_MS: "120000" }, clock: new ManualClock(Date.now()) });
  sub = await startSubscriber(tls.trusted);
  await h.post({
    "hub.mode": "subscribe",
    "hub.topic": TOPICS.atom,
    "hub.callback": sub.callback(),
    "hub.secret": SECRET,
  });
  await h.hub.idle();
  // A second request left pending: the subscriber never answers its verification.
  sub.respond = () => new Promise(() => {});
  await h.post({
    "hub.mode": "subscribe",
    "hub.topic": TOPICS.json,
    "hub.callback": sub.callback("/p"),
    "hub.secret": SECRET,
  });
  await sub.waitFor(isVerification(), 2);
});

afterAll(async () => {
  await sub.close();
  await h.close();
});

describe("npm run hub:list", () => {
  it("prints subscriptions and pending verifications while the hub runs, without secrets", async () => {
    const { stdout } = await hubList(h.dataDir);
    expect(stdout).toContain("1 subscription(s)");
    expect(stdout).toContain(`  ${TOPICS.atom}\n    callback   ${sub.callback()}\n    state      active\n`);
    expect(stdout).toContain("    secret     set\n");
    expect(stdout).toContain(`1 pending verification(s)\n  subscribe ${TOPICS.json} → ${sub.callback("/p")}`);
    expect(stdout).not.toContain(SECRET);
  });

  it("prints JSON with --json, still without secrets", async () => {
    const { stdout } = await hubList(h.dataDir, "--json");
    const list = JSON.parse(stdout);
    expect(list.subscriptions).toMatchObject([{ topic: TOPICS.atom, callback: sub.callback(), hasSecret: true }]);
    expect(list.subscriptions[0]).not.toHaveProperty("secret");
    expect(list.pending).toMatchObject([{ mode: "subscribe", topic: TOPICS.json, hasSecret: true }]);
    expect(stdout).not.toContain(SECRET);
  });

  it("refuses an argument it does not know (a mistyped --json), with its usage, rather than ignore it", async () => {
    for (const arg of ["--jsn", "extra"]) {
      const failed = await hubList(h.dataDir, arg).catch((e: { code: number; stdout: string; stderr: string }) => e);
      expect(failed).toMatchObject({ code: 2, stdout: "" });
      expect((failed as { stderr: string }).stderr).toMatch(/^hub:list: .*\nusage: npm run hub:list \[-- --json\]\n$/);
    }
  });

  it("says so when the hub has never run, and prints an empty listing with --json, saying why on stderr", async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), "pr-hub-none-"));
    try {
      const never = `No hub database at ${path.join(empty, "hub.sqlite")}: the hub has never run with this DATA_DIR.\n`;
      expect((await hubList(empty)).stdout).toBe(never);
      const { stdout, stderr } = await hubList(empty, "--json");
      expect(JSON.parse(stdout)).toEqual({ subscriptions: [], pending: [] });
      expect(stderr).toBe(never);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe("npm run hub:list, for a lease that has ended", () => {
  it("shows the subscription as expired, not active, in both outputs", async () => {
    const clock = new ManualClock(Date.now() - 20 * 86_400_000);
    const old = await startHarness({ clock });
    const subscriber = await startSubscriber(tls.trusted);
    try {
      const form = { "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": subscriber.callback() };
      expect((await old.post({ ...form, "hub.lease_seconds": "86400" })).status).toBe(202);
      await old.hub.idle();
      // The hub stops before its sweep would remove the row, as after a crash or a pause.
      await old.close();
      const ended = new Date(clock.now() + 86_400_000).toISOString();
      const { stdout } = await hubList(old.dataDir);
      expect(stdout).toContain(`    state      expired (lease ended ${ended}; removed when the hub next sweeps)\n`);
      expect(stdout).not.toContain("state      active");
      const listed = JSON.parse((await hubList(old.dataDir, "--json")).stdout);
      expect(listed.subscriptions).toMatchObject([{ callback: subscriber.callback(), state: "expired" }]);
    } finally {
      await subscriber.close();
    }
  });
});

const noPostgres = await postgresUnavailable();
describeWithPackage(noPostgres, "npm run hub:list with DATABASE_URL", () => {
  it("reads the subscriptions from PostgreSQL, not DATA_DIR, still without secrets", async () => {
    const server = await startPgServer();
    const empty = await mkdtemp(path.join(os.tmpdir(), "pr-hub-pg-"));
    const log = createLogger("silent");
    try {
      const url = await createDatabase(server);
      const pool = createPool(url, log);
      await migrate(pool, log);
      const callback = "https://subscriber.example.net/pg-callback";
      await new PgHubStore(pool).upsert(
        {
          topic: TOPICS.atom,
          callback,
          callbackHost: "subscriber.example.net",
          secret: SECRET,
          leaseSeconds: 3600,
          expiresAt: Date.now() + 3_600_000,
          deliveredHash: null,
        },
        Date.now(),
      );
      await pool.end();
      const { stdout } = await run(process.execPath, [SCRIPT], {
        env: { ...process.env, DATA_DIR: empty, DATABASE_URL: url, BASE_URL: "" },
      });
      expect(stdout).toContain("1 subscription(s)");
      expect(stdout).toContain(`  ${TOPICS.atom}\n    callback   ${callback}\n`);
      expect(stdout).toContain("    secret     set\n");
      expect(stdout).not.toContain(SECRET);
    } finally {
      await server.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
