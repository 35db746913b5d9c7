import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPool, migrate } from "../../../sidecar/db/postgres.ts";
import { PgSessionStore } from "../../../sidecar/mcp/pg-session-store.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { type McpTestApp, openSession, postRpc, startMcpApp } from "../../helpers/mcp-app.ts";
import { createDatabase, type PgServer, postgresSuitesMissing, startPgServer } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * A database that stops answering without refusing (a network partition, a stalled server) is the
 * outage docs/deployment.md's failure table means too: MCP reads keep working, the session check
 * treats a signed id as live, and a DELETE fails so the client can send it again. Each database
 * wait is bounded by the readiness probe's 2 s, not the pool's connect and query timeouts (5, 15 s).
 * A TCP relay in front of a real PostgreSQL stops forwarding to make the partition.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const silent = pino({ level: "silent" });
const unavailable = await postgresSuitesMissing();

/** Forwards to `port` until `hang()`: from then on bytes go nowhere and new connections get no answer. */
async function relay(port: number): Promise<{ port: number; hang(): void; close(): Promise<void> }> {
  let hung = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    if (hung) return;
    const upstream = net.connect(port, "127.0.0.1");
    sockets.add(upstream);
    client.on("data", (d) => hung || upstream.write(d));
    upstream.on("data", (d) => hung || client.write(d));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hang: () => {
      hung = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describeWithPackage(unavailable, "MCP sessions while PostgreSQL hangs", () => {
  let server: PgServer;
  let dist: string;
  let proxy: Awaited<ReturnType<typeof relay>>;
  let pool: pg.Pool;
  let app: McpTestApp;
  let sessions: PgSessionStore;

  beforeAll(async () => {
    const build = await buildSite(CONTENT, { BASE_URL: BASE });
    expect(build.code, build.stderr).toBe(0);
    dist = build.distDir;
    server = await startPgServer();
    const url = new URL(await createDatabase(server));
    proxy = await relay(Number(url.port));
    url.port = String(proxy.port);
    pool = createPool(url.href, silent);
    await migrate(pool, silent);
    sessions = new PgSessionStore(pool, { idleMs: 86_400_000, pruneIntervalMs: 0 });
    app = await startMcpApp(dist, { env: { BASE_URL: BASE }, sessions });
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await sessions?.close();
    await proxy?.close();
    await pool?.end().catch(() => undefined);
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("answers a session's requests within 2 s, and refuses its DELETE within two such waits", {
    timeout: 60_000,
  }, async () => {
    const id = await openSession(app.endpoint);
    const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    expect((await postRpc(app.endpoint, list, headers)).status).toBe(200);
    proxy.hang();
    // The first request meets the pool's open connections, the later ones its connect timeout.
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const reply = await postRpc(app.endpoint, list, headers);
      expect(reply.status, `request ${i}`).toBe(200);
      expect(reply.body.result.tools.length).toBeGreaterThan(0);
      expect(Date.now() - started, `request ${i}`).toBeLessThan(2_500);
    }
    // A DELETE looks the session up, then records its end: two bounded waits.
    const started = Date.now();
    const end = await fetch(app.endpoint, { method: "DELETE", headers });
    expect(end.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(4_800);
  });
});
