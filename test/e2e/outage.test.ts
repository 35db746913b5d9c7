import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { tempDistDir } from "../helpers/build-site.ts";
import { freePort } from "../helpers/free-port.ts";
import {
  isDelivery,
  LOCAL_SUBSCRIBERS_HUB_ENV,
  type Subscriber,
  startSubscriber,
} from "../helpers/https-subscriber.ts";
import { POSTGRES_UNAVAILABLE } from "../helpers/hub-backends.ts";
import { killTree, type NpmProcess, startNpm } from "../helpers/npm-process.ts";
import { createDatabase, type PgServer, startPgServer } from "../helpers/pg-cluster.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

/**
 * `npm start` with DATABASE_URL while PostgreSQL is down: an edit is built and served, but the
 * hub cannot record it. Before, nothing was ever delivered once the database came back (and the
 * log blamed the build). Now the failure is logged as what it is and the subscribers are notified
 * once the database is reachable again, without any ping.
 */

const tls = inject("testTls");
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const SUBSCRIBERS = 20;
if (POSTGRES_UNAVAILABLE && process.env.CI) throw new Error(POSTGRES_UNAVAILABLE);

describeWithPackage(POSTGRES_UNAVAILABLE, "npm start through a database outage", () => {
  let server: PgServer;
  let content: string;
  let dist: string;
  let npm: NpmProcess;
  let sub: Subscriber;
  let base: string;
  let url: string;

  const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 120_000) => {
    const end = Date.now() + ms;
    while (
      !(await Promise.resolve()
        .then(check)
        .catch(() => false))
    ) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${npm.stdout().slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    server = await startPgServer();
    url = await createDatabase(server);
    content = await mkdtemp(path.join(os.tmpdir(), "pr-outage-content-"));
    await cp(FIXTURE, content, { recursive: true });
    dist = await tempDistDir("pr-outage-dist-");
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    npm = await startNpm(["start"], {
      PORT: String(port),
      BASE_URL: base,
      CONTENT_DIR: content,
      DIST_DIR: dist,
      DATA_DIR: `${dist}-data`,
      DATABASE_URL: url,
      LOG_LEVEL: "info",
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
      ...LOCAL_SUBSCRIBERS_HUB_ENV,
      BUILD_SYNC_SECONDS: "1",
    });
    sub = await startSubscriber(tls.trusted);
  }, 1_500_000);

  afterAll(async () => {
    killTree(npm);
    await sub?.close();
    await server?.close();
    await rm(content, { recursive: true, force: true });
    await rm(`${dist}-data`, { recursive: true, force: true });
  });

  it("notifies every subscriber of an edit made during the outage once the database is back", {
    timeout: 1_000_000,
  }, async () => {
    const topic = `${base}/feed.xml`;
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const body = new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.topic": topic,
        "hub.callback": sub.callback(`/o${i}`),
      });
      expect((await fetch(`${npm.url}/api/websub/hub`, { method: "POST", body })).status).toBe(202);
    }
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pool.on("error", () => undefined);
    const count = async () => (await pool.query("SELECT count(*)::int AS n FROM hub_subscriptions")).rows[0].n;
    await until("20 verified subscriptions", async () => (await count()) === SUBSCRIBERS);
    await pool.end();

    await server.pause();
    const marker = "Outage-proof";
    await writeFile(
      path.join(content, "reviews", "2025", "2025-12-01-outage.yaml"),
      [
        "date: 2025-12-01",
        'published_at: "2025-12-01T10:00:00Z"',
        "rating: 5",
        "author: Olga O.",
        `text: ${marker} care, even while the database was down.`,
        "source: {platform: direct}",
        "verification: {method: invoice, verified_on: 2025-12-01}",
        "",
      ].join("\n"),
    );
    await until("the edit served", async () => (await (await fetch(`${npm.url}/feed.xml`)).text()).includes(marker));
    await until("the failed distribution logged", () => npm.stdout().includes("distributing it failed"));
    expect(npm.stdout()).not.toContain("the new build cannot be loaded");
    const delivered = () =>
      new Set(sub.requests.filter((r) => isDelivery(r) && r.body.toString().includes(marker)).map((r) => r.rawUrl));
    expect(delivered().size).toBe(0);

    await server.resume();
    await until("every subscriber notified", () => delivered().size === SUBSCRIBERS);
  });
});
