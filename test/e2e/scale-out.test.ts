import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { MANIFEST_FILE } from "../../src/http-headers/manifest.ts";
import { buildSite, tempDistDir } from "../helpers/build-site.ts";
import { deployFile } from "../helpers/deploy-file.ts";
import {
  isDelivery,
  LOCAL_SUBSCRIBERS_HUB_ENV,
  type Subscriber,
  startSubscriber,
} from "../helpers/https-subscriber.ts";
import { POSTGRES_UNAVAILABLE } from "../helpers/hub-backends.ts";
import { createDatabase, type PgServer, startPgServer } from "../helpers/pg-cluster.ts";
import { freePort, type SidecarProcess, startSidecar, untilInstances } from "../helpers/sidecar-process.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

/**
 * Two `npm run sidecar` processes on one PostgreSQL and one DIST_DIR, 100 HTTPS subscribers: a
 * build that changes no feed (an insights summary edit) reaches both instances, and a publish ping
 * answered 202 by an instance that is SIGKILLed right after the answer still reaches every
 * subscriber once, and the survivor serves the new build.
 */

const tls = inject("testTls");
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const SUBSCRIBERS = 100;
const LONG_MS = 240_000;
if (POSTGRES_UNAVAILABLE && process.env.CI) throw new Error(POSTGRES_UNAVAILABLE);

interface Health {
  build: string;
}

describeWithPackage(POSTGRES_UNAVAILABLE, "two sidecars sharing PostgreSQL and DIST_DIR", () => {
  let server: PgServer;
  let pool: pg.Pool;
  let content: string;
  let distDir: string;
  let base: string;
  let a: SidecarProcess;
  let b: SidecarProcess;
  let sub: Subscriber;

  const until = untilInstances(() => [a, b], { ms: 120_000, tail: 3000 });
  const health = async (p: SidecarProcess) => (await (await fetch(`${p.url}/healthz`)).json()) as Health;
  const builtVersion = async () => {
    const { createHash } = await import("node:crypto");
    return createHash("sha256")
      .update(await readFile(path.join(distDir, MANIFEST_FILE)))
      .digest("base64url");
  };
  const summaryOn = async (p: SidecarProcess) => {
    const client = new Client({ name: "scale-out-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`)));
    try {
      const r = await client.callTool({ name: "get_insights", arguments: { section: "summary" } });
      return JSON.stringify(r.structuredContent);
    } finally {
      await client.close();
    }
  };
  const ping = (p: SidecarProcess, topic: string) =>
    fetch(`${p.url}/api/websub/hub`, {
      method: "POST",
      body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }),
    });

  beforeAll(async () => {
    server = await startPgServer();
    const url = await createDatabase(server);
    pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => undefined);
    content = await mkdtemp(path.join(os.tmpdir(), "pr-scale-content-"));
    await cp(FIXTURE, content, { recursive: true });
    base = `http://127.0.0.1:${await freePort()}`;
    distDir = await tempDistDir("pr-scale-dist-");
    const built = await buildSite(content, { BASE_URL: base }, distDir);
    expect(built.code, built.stderr).toBe(0);
    const env = {
      BASE_URL: base,
      DIST_DIR: distDir,
      DATABASE_URL: url,
      LOG_LEVEL: "info",
      ...LOCAL_SUBSCRIBERS_HUB_ENV,
      RATE_LIMIT_PER_MINUTE: "100000",
      // Convergence below comes from the announcement, not from the timer.
      BUILD_SYNC_SECONDS: "3600",
    };
    [a, b] = await Promise.all([
      startSidecar({ ...env, DATA_DIR: `${distDir}-a` }),
      startSidecar({ ...env, DATA_DIR: `${distDir}-b` }),
    ]);
    sub = await startSubscriber(tls.trusted);
  }, 1_500_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sub?.close();
    await pool?.end();
    await server?.close();
  });

  it(
    "brings both instances to a build that changed only the insights summary",
    async () => {
      const before = await summaryOn(b);
      await writeFile(path.join(content, "insights", "summary.md"), "Patients now mention the new parking garage.\n");
      const built = await buildSite(content, { BASE_URL: base }, distDir);
      expect(built.code, built.stderr).toBe(0);
      const version = await builtVersion();
      // An insights-only build: no feed changed, so no topic version moves.
      expect((await ping(a, `${base}/reviews.json`)).status).toBe(202);
      await until("both instances on the new build", async () => {
        const [ha, hb] = await Promise.all([health(a), health(b)]);
        return ha.build === version && hb.build === version;
      });
      const [onA, onB] = await Promise.all([summaryOn(a), summaryOn(b)]);
      expect(onA).toContain("parking garage");
      expect(onB).toBe(onA);
      expect(onB).not.toBe(before);
    },
    LONG_MS,
  );

  it(
    "notifies all 100 subscribers once when the instance that answered 202 is SIGKILLed right after",
    async () => {
      const topic = `${base}/feed.xml`;
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const via = i % 2 === 0 ? a : b;
        const body = new URLSearchParams({
          "hub.mode": "subscribe",
          "hub.topic": topic,
          "hub.callback": sub.callback(`/s${i}`),
        });
        expect((await fetch(`${via.url}/api/websub/hub`, { method: "POST", body })).status).toBe(202);
      }
      const count = async () => (await pool.query("SELECT count(*)::int AS n FROM hub_subscriptions")).rows[0].n;
      await until("100 verified subscriptions", async () => (await count()) === SUBSCRIBERS);

      // A deployment step: the new feed, then the header manifest naming its ETag.
      const marker = "after-the-kill";
      const feed = `${await readFile(path.join(distDir, "feed.xml"), "utf8")}<!-- ${marker} -->`;
      await deployFile(distDir, "/feed.xml", feed);
      const version = await builtVersion();

      const answer = await ping(a, topic);
      a.child.kill("SIGKILL");
      expect(answer.status).toBe(202);
      await new Promise((r) => a.child.once("exit", r));

      const deliveries = () => sub.requests.filter((r) => isDelivery(r) && r.body.toString().includes(marker));
      await until("every subscriber notified", () => new Set(deliveries().map((r) => r.rawUrl)).size === SUBSCRIBERS);
      await until("the survivor on the new build", async () => (await health(b)).build === version);
      const jobs = async () =>
        (await pool.query("SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created','retry','active')"))
          .rows[0].n;
      await until("every job finished", async () => (await jobs()) === 0);
      expect(deliveries()).toHaveLength(SUBSCRIBERS);
      expect(deliveries().every((r) => r.body.toString() === feed)).toBe(true);
    },
    LONG_MS,
  );
});
