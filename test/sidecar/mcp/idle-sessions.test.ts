import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "mcp-sdk-v1/client";
import { StreamableHTTPClientTransport as TransportV1 } from "mcp-sdk-v1/client/streamableHttp.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgSessionStore } from "../../../sidecar/mcp/pg-session-store.ts";
import { SqliteSessionStore } from "../../../sidecar/mcp/sqlite-session-store.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import { type McpTestApp, openSession, postRpc, publishEditedReview, startMcpApp } from "../../helpers/mcp-app.ts";
import { migratedPools, postgresSuitesMissing } from "../../helpers/pg-cluster.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * 2025-era sessions expire after `MCP_SESSION_TTL_MS` of idleness, not that long after
 * `initialize`: the official SDK clients (1.x and 2.x in its default legacy mode), which never
 * re-initialize after a 404, stay usable through many timeouts of regular use on an injected
 * clock; an open event stream keeps its session and delivers its changes; with PostgreSQL a use
 * on one instance keeps the session alive on another, and a DELETE still ends it everywhere.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const SECRET = "an-idle-session-secret-of-32-characters-0";
const TTL = 60_000;
const silent = pino({ level: "silent" });
const unavailable = await postgresSuitesMissing();

let dist: string;
const databases = migratedPools(silent);
const started: McpTestApp[] = [];

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
}, 120_000);

afterAll(async () => {
  for (const a of started) await a.close();
  await databases.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function start(clock: ManualClock, sessions?: PgSessionStore): Promise<McpTestApp> {
  const env = { BASE_URL: BASE, MCP_SESSION_SECRET: SECRET, MCP_SESSION_TTL_MS: String(TTL) };
  const app = await startMcpApp(dist, { env, clock, sessions });
  started.push(app);
  return app;
}

const headers = (id: string) => ({ "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const status = async (app: McpTestApp, id: string) => (await postRpc(app.endpoint, listTools, headers(id))).status;
/** Lets the stream renewals a clock step started settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The two official SDK clients, connected in their default (2025-era, session) mode. */
const sdkClients = {
  "1.x": async (endpoint: string) => {
    const client = new ClientV1({ name: "idle-test-v1", version: "0" });
    await client.connect(new TransportV1(new URL(endpoint)));
    return { call: () => client.callTool({ name: "get_business", arguments: {} }), close: () => client.close() };
  },
  "2.x": async (endpoint: string) => {
    const client = new ClientV2({ name: "idle-test-v2", version: "0" });
    await client.connect(new TransportV2(new URL(endpoint)));
    return { call: () => client.callTool({ name: "get_business", arguments: {} }), close: () => client.close() };
  },
};

describe("sessions expire after idleness", () => {
  for (const [version, connect] of Object.entries(sdkClients)) {
    it(`keeps the official SDK ${version} client usable through five idle timeouts of regular calls`, async () => {
      const clock = new ManualClock();
      const app = await start(clock);
      const client = await connect(app.endpoint);
      for (let i = 0; i < 10; i++) {
        clock.advance(TTL / 2);
        await settle();
        const result = await client.call();
        expect(result.isError, `call ${i}`).toBeFalsy();
        expect((result.structuredContent as { business: { name: string } }).business.name).toBeTruthy();
      }
      await client.close();
    }, 60_000);
  }

  it("moves a session's expiry with each request, and refuses it (404) after one timeout of idleness", async () => {
    const clock = new ManualClock();
    const app = await start(clock);
    const id = await openSession(app.endpoint);
    for (let i = 0; i < 6; i++) {
      clock.advance(TTL - 1);
      expect(await status(app, id), `request ${i}`).toBe(200);
    }
    clock.advance(TTL);
    expect(await status(app, id)).toBe(404);
  });

  it("keeps a session with an open event stream, delivers a change after several timeouts, and ends it on DELETE", async () => {
    const clock = new ManualClock();
    const app = await start(clock);
    const id = await openSession(app.endpoint);
    const dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
    const target = dataset.reviews[0] as ReviewsDataset["reviews"][number];
    const subscribe = {
      jsonrpc: "2.0",
      id: 3,
      method: "resources/subscribe",
      params: { uri: `reviews://${target.id}` },
    };
    expect((await postRpc(app.endpoint, subscribe, headers(id))).status).toBe(200);
    const stream = await fetch(app.endpoint, { headers: { accept: "text/event-stream", ...headers(id) } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    for (let i = 0; i < 8; i++) {
      clock.advance(TTL / 2);
      await settle();
    }
    expect(app.mcp.openStreams).toBe(1);
    expect(await status(app, id)).toBe(200);
    await publishEditedReview(app, target.id);

    let text = "";
    const decoder = new TextDecoder();
    while (!text.includes("notifications/resources/updated")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain(`"uri":"reviews://${target.id}"`);
    expect((await fetch(app.endpoint, { method: "DELETE", headers: headers(id) })).status).toBe(200);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    expect(await status(app, id)).toBe(404);
  }, 60_000);
});

describe("idle expiry across a restart of one instance (SQLite in DATA_DIR)", () => {
  it("keeps a session used past its signed first expiry through a restart, and its DELETE through another", async () => {
    const clock = new ManualClock();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-sessions-"));
    // Each instance in turn, closed before the next starts, as a restart does.
    const instance = () =>
      startMcpApp(dist, {
        env: { BASE_URL: BASE, MCP_SESSION_SECRET: SECRET, MCP_SESSION_TTL_MS: String(TTL) },
        clock,
        sessions: SqliteSessionStore.open(dataDir, { idleMs: TTL, clock, pruneIntervalMs: 0 }),
      });
    try {
      const first = await instance();
      const id = await openSession(first.endpoint);
      for (let i = 0; i < 6; i++) {
        clock.advance(TTL / 2);
        expect(await status(first, id), `request ${i}`).toBe(200);
      }
      await first.close();
      const second = await instance();
      clock.advance(TTL / 2);
      // Three timeouts past its initialize, used within one: live after the restart.
      expect(await status(second, id)).toBe(200);
      expect((await fetch(second.endpoint, { method: "DELETE", headers: headers(id) })).status).toBe(200);
      await second.close();
      const third = await instance();
      expect(await status(third, id)).toBe(404);
      await third.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describeWithPackage(unavailable, "idle expiry across instances (PostgreSQL)", () => {
  it("keeps a session used alternately on two instances alive, and a DELETE on one ends it on both", async () => {
    const clock = new ManualClock();
    const pool = await databases.fresh();
    const store = () => new PgSessionStore(pool, { idleMs: TTL, clock, pruneIntervalMs: 0 });
    const [a, b] = [await start(clock, store()), await start(clock, store())];
    const id = await openSession(a.endpoint);
    for (let i = 0; i < 8; i++) {
      clock.advance(TTL / 2);
      expect(await status(i % 2 === 0 ? b : a, id), `request ${i}`).toBe(200);
    }
    expect((await fetch(b.endpoint, { method: "DELETE", headers: headers(id) })).status).toBe(200);
    expect(await status(a, id)).toBe(404);
    expect(await status(b, id)).toBe(404);
    const idle = await openSession(a.endpoint);
    clock.advance(TTL);
    expect(await status(b, idle)).toBe(404);
  }, 60_000);
});
