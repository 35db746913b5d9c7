import { rm } from "node:fs/promises";
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
import { relayedUrl, type TcpRelay } from "../../helpers/tcp-relay.ts";

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

describeWithPackage(unavailable, "MCP sessions while PostgreSQL hangs", () => {
  let server: PgServer;
  let dist: string;
  let proxy: TcpRelay;
  let pool: pg.Pool;
  let app: McpTestApp;
  let sessions: PgSessionStore;

  beforeAll(async () => {
    const build = await buildSite(CONTENT, { BASE_URL: BASE });
    expect(build.code, build.stderr).toBe(0);
    dist = build.distDir;
    server = await startPgServer();
    const relayed = await relayedUrl(await createDatabase(server));
    proxy = relayed.relay;
    pool = createPool(relayed.url, silent);
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
