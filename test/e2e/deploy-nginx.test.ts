import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { MANIFEST_FILE, strongEtag } from "../../src/http-headers/manifest.ts";
import { buildSite, tempDistDir } from "../helpers/build-site.ts";
import {
  cooperative,
  isDelivery,
  LOCAL_SUBSCRIBERS_HUB_ENV,
  type Subscriber,
  startSubscriber,
} from "../helpers/https-subscriber.ts";
import { POSTGRES_UNAVAILABLE } from "../helpers/hub-backends.ts";
import { nginxUnavailable, type RunningNginx, startNginx } from "../helpers/nginx.ts";
import { createDatabase, type PgServer, startPgServer } from "../helpers/pg-cluster.ts";
import { freePort, type SidecarProcess, startSidecar, untilInstances } from "../helpers/sidecar-process.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

/**
 * The deployment of docs/deployment.md, end to end: deploy/nginx.conf in Debian's nginx in front
 * of two `npm run sidecar` processes sharing one PostgreSQL and MCP_SESSION_SECRET: one MCP
 * session used on both instances (before A is killed, so it runs second), 200 HTTPS subscribers,
 * a publish, and a SIGKILL of one instance in the middle of the next fan-out.
 */

const tls = inject("testTls");
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const SUBSCRIBERS = 200;
/** A fan-out to 200 HTTPS subscribers on a loaded 2-core machine; `until` gives up after 100 s. */
const FAN_OUT_MS = 240_000;
const skip = POSTGRES_UNAVAILABLE ?? nginxUnavailable();
if (skip && process.env.CI) throw new Error(`the deployment test cannot run in CI: ${skip}`);
if (skip) process.stderr.write(`Skipping the nginx deployment test: ${skip}\n`);

/**
 * What a deployment step does to the shared dist/: the changed feed first, then the header
 * manifest with its new ETag. The sidecar refuses a feed whose bytes do not match the manifest (a
 * build still being copied), so changing the feed alone would make every publish fail.
 */
async function deployFeedChange(distDir: string, marker: string): Promise<void> {
  const feed = `${await readFile(path.join(distDir, "feed.xml"), "utf8")}<!-- ${marker} -->`;
  const manifestPath = path.join(distDir, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
  manifest.files["/feed.xml"].etag = strongEtag(feed);
  await writeFile(path.join(distDir, "feed.xml"), feed);
  await writeFile(manifestPath, JSON.stringify(manifest));
}

describeWithPackage(skip, "two instances behind nginx sharing PostgreSQL", () => {
  let server: PgServer;
  let pool: pg.Pool;
  let distDir: string;
  let nginx: RunningNginx;
  let a: SidecarProcess;
  let b: SidecarProcess;
  let sub: Subscriber;
  let base: string;

  const until = untilInstances(() => [a, b], { ms: 100_000, tail: 2000 });

  beforeAll(async () => {
    server = await startPgServer();
    const url = await createDatabase(server);
    pool = new pg.Pool({ connectionString: url, max: 2 });
    // The last test stops the server under this pool's idle connections.
    pool.on("error", () => undefined);
    distDir = await tempDistDir("pr-deploy-dist-");
    const built = await buildSite(FIXTURE, {}, distDir);
    expect(built.code, built.stderr).toBe(0);
    const nginxPort = await freePort();
    base = `http://127.0.0.1:${nginxPort}`;
    const env = {
      BASE_URL: base,
      DIST_DIR: distDir,
      DATABASE_URL: url,
      LOG_LEVEL: "warn",
      TRUST_PROXY: "1",
      ...LOCAL_SUBSCRIBERS_HUB_ENV,
      RATE_LIMIT_PER_MINUTE: "100000",
      // What makes a session id issued by one instance valid on the other.
      MCP_SESSION_SECRET: "a-secret-both-instances-share-0000",
    };
    // Both at once: the migration lock makes one wait for the other.
    [a, b] = await Promise.all([
      startSidecar({ ...env, DATA_DIR: `${distDir}-a` }),
      startSidecar({ ...env, DATA_DIR: `${distDir}-b` }),
    ]);
    nginx = await startNginx({ port: nginxPort, upstreams: [a.port, b.port], distDir });
    sub = await startSubscriber(tls.trusted);
    // A real Astro build (serialised with other tests' builds) and three servers: minutes on a busy machine.
  }, 1_500_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await sub?.close();
    await pool?.end();
    await server?.close();
  });

  const topic = () => `${base}/feed.xml`;
  const deliveriesOf = (marker: string) =>
    sub.requests.filter((r) => isDelivery(r) && r.body.toString().includes(marker));
  const pendingJobs = async () =>
    (await pool.query("SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created','retry','active')")).rows[0]
      .n;

  it("serves dist/ from nginx and search through nginx and through either instance", async () => {
    expect((await fetch(`${nginx.url}/`)).status).toBe(200);
    expect((await fetch(`${nginx.url}/reviews.json`)).status).toBe(200);
    for (const origin of [nginx.url, a.url, b.url]) {
      const res = await fetch(`${origin}/api/reviews/search?min_rating=4&limit=2`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { count: number }).count).toBeGreaterThan(0);
    }
    expect((await fetch(`${nginx.url}/healthz`)).status).toBe(200);
    // An API path nginx has no file for is the sidecar's to answer: JSON, as on the sidecar itself.
    for (const origin of [nginx.url, a.url]) {
      const res = await fetch(`${origin}/api/reviews-nowhere?x=1`);
      expect(res.status, origin).toBe(404);
      expect(res.headers.get("content-type"), origin).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: string }).error).toBe("not_found");
    }
    const feed = await fetch(`${nginx.url}/api/feed.json`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("link")).toContain('rel="hub"');
    expect((await fetch(`${nginx.url}/api/`)).status).toBe(200);
  });

  it("keeps an MCP session across instances: initialize via A, search_reviews via B, DELETE via A ends it on B", async () => {
    // One SDK client whose requests a "load balancer" (its fetch) sends to A or to B.
    let target = a.url;
    const routed: { to: string; method: string; rpc?: string }[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      fetch: (url, init) => {
        const to = new URL(new URL(url).pathname, target);
        const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : undefined;
        routed.push({ to: to.origin, method: init?.method ?? "GET", rpc: body?.method });
        return fetch(to, init);
      },
    });
    const client = new Client({ name: "deploy-test", version: "0.0.0" }, { supportedProtocolVersions: ["2025-06-18"] });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe("2025-06-18");
    const id = transport.sessionId;
    expect(id).toBeTruthy();

    target = b.url;
    const result = await client.callTool({ name: "search_reviews", arguments: { min_rating: 4, limit: 2 } });
    expect(result.isError).toBeFalsy();
    const rest = (await (await fetch(`${b.url}/api/reviews/search?min_rating=4&limit=2`)).json()) as {
      reviews: { id: string }[];
    };
    const found = result.structuredContent as { reviews: { id: string }[] };
    expect(found.reviews.map((r) => r.id)).toEqual(rest.reviews.map((r) => r.id));
    expect(routed.find((r) => r.rpc === "initialize")?.to).toBe(a.url);
    expect(routed.find((r) => r.rpc === "tools/call")?.to).toBe(b.url);

    target = a.url;
    await transport.terminateSession();
    expect(routed.at(-1)).toMatchObject({ to: a.url, method: "DELETE" });
    await client.close();
    // The end is recorded in PostgreSQL, so B refuses the id too.
    const after = await fetch(`${b.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id as string,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
  });

  it(
    "takes 200 subscriptions alternating between the instances and notifies each once per change",
    async () => {
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const via = i % 2 === 0 ? a : b;
        const body = new URLSearchParams({
          "hub.mode": "subscribe",
          "hub.topic": topic(),
          "hub.callback": sub.callback(`/s${i}`),
        });
        const res = await fetch(`${via.url}/api/websub/hub`, { method: "POST", body });
        expect(res.status).toBe(202);
      }
      const count = async () => (await pool.query("SELECT count(*)::int AS n FROM hub_subscriptions")).rows[0].n;
      await until("200 verified subscriptions", async () => (await count()) === SUBSCRIBERS);

      await deployFeedChange(distDir, "change-1");
      const ping = new URLSearchParams({ "hub.mode": "publish", "hub.url": topic() });
      expect((await fetch(`${a.url}/api/websub/hub`, { method: "POST", body: ping })).status).toBe(202);
      await until(
        "every subscriber notified",
        () => new Set(deliveriesOf("change-1").map((r) => r.rawUrl)).size === SUBSCRIBERS,
      );
      await until("the queue to drain", async () => (await pendingJobs()) === 0);
      const body = await readFile(path.join(distDir, "feed.xml"), "utf8");
      expect(deliveriesOf("change-1")).toHaveLength(SUBSCRIBERS);
      expect(deliveriesOf("change-1").every((r) => r.body.toString() === body)).toBe(true);
    },
    FAN_OUT_MS,
  );

  it(
    "finishes a fan-out on the survivor when an instance is SIGKILLed in the middle of it",
    async () => {
      // Slow subscribers keep the fan-out in progress long enough to kill A during it.
      sub.respond = async (r) => {
        if (r.method === "POST") await new Promise((res) => setTimeout(res, 150));
        return cooperative(r);
      };
      await deployFeedChange(distDir, "change-2");
      const ping = new URLSearchParams({ "hub.mode": "publish", "hub.url": topic() });
      expect((await fetch(`${a.url}/api/websub/hub`, { method: "POST", body: ping })).status).toBe(202);
      await until("the fan-out to start", () => deliveriesOf("change-2").length >= 30);
      a.child.kill("SIGKILL");
      await new Promise((r) => a.child.once("exit", r));
      await until(
        "every subscriber notified",
        () => new Set(deliveriesOf("change-2").map((r) => r.rawUrl)).size === SUBSCRIBERS,
      );
      await until("the queue to drain", async () => (await pendingJobs()) === 0);
      const perSubscriber = new Map<string, number>();
      for (const r of deliveriesOf("change-2")) perSubscriber.set(r.rawUrl, (perSubscriber.get(r.rawUrl) ?? 0) + 1);
      const duplicates = deliveriesOf("change-2").length - SUBSCRIBERS;
      process.stdout.write(`deployment test: ${duplicates} duplicate notification(s) after SIGKILL mid fan-out\n`);
      // At-least-once: only jobs A had in flight (at most HUB_CONCURRENCY=16) can be delivered twice.
      expect(duplicates).toBeLessThanOrEqual(16);
      expect(Math.max(...perSubscriber.values())).toBeLessThanOrEqual(2);
    },
    FAN_OUT_MS,
  );

  it("keeps reads up and answers the hub with 503 and Retry-After while PostgreSQL is down", async () => {
    await server.close();
    expect((await fetch(`${b.url}/livez`)).status).toBe(200);
    const ready = await fetch(`${b.url}/healthz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "degraded", database: "unreachable" });
    expect((await fetch(`${b.url}/api/reviews/search?limit=1`)).status).toBe(200);
    expect((await fetch(`${nginx.url}/api/reviews/search?limit=1`)).status).toBe(200);
    expect((await fetch(`${nginx.url}/reviews.json`)).status).toBe(200);
    const body = new URLSearchParams({
      "hub.mode": "subscribe",
      "hub.topic": topic(),
      "hub.callback": sub.callback("/late"),
    });
    const hub = await fetch(`${b.url}/api/websub/hub`, { method: "POST", body });
    expect(hub.status).toBe(503);
    expect(hub.headers.get("retry-after")).toBe("30");
  });
});
