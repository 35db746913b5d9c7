import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { PgSessionStore } from "../../../sidecar/mcp/pg-session-store.ts";
import { MemorySessionStore, type SessionStore } from "../../../sidecar/mcp/session-store.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { type McpTestApp, openSession, postRpc, startMcpApp } from "../../helpers/mcp-app.ts";
import { migratedPools, postgresSuitesMissing } from "../../helpers/pg-cluster.ts";
import { type SidecarProcess, startSidecar } from "../../helpers/sidecar-process.ts";
import { describeWithPackage } from "../../helpers/system-packages.ts";

/**
 * What a session id is worth once ended or once the server restarts: every other spelling of a
 * DELETEd id is refused like the id itself (memory and PostgreSQL session stores), a DELETE the
 * store cannot record is a 503 the client can retry, and an id outlives a restart only under the
 * same secret: `MCP_SESSION_SECRET`, or unset the one kept in DATA_DIR.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const SECRET = "a-session-secret-of-at-least-32-characters-0";
const IDLE = 86_400_000;
const silent = pino({ level: "silent" });
const unavailable = await postgresSuitesMissing();

const databases = migratedPools(silent);
const pools: pg.Pool[] = [];
const started: McpTestApp[] = [];

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

afterAll(async () => {
  for (const a of started) await a.close();
  await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  await databases.close();
});

async function start(sessions?: SessionStore, secret = SECRET): Promise<McpTestApp> {
  const app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE, MCP_SESSION_SECRET: secret }, sessions });
  started.push(app);
  return app;
}

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" };
const call = (app: McpTestApp, id: string) =>
  postRpc(app.endpoint, listTools, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
const end = (app: McpTestApp, id: string) =>
  fetch(app.endpoint, { method: "DELETE", headers: { "mcp-session-id": id } });

const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * The spellings Node's lenient base64url decoder reads as the same signature: padding, trailing
 * junk, the unused low bits of the last character (a 32-byte HMAC in 43 characters leaves 2), and
 * the standard `+/` alphabet.
 */
function respellings(id: string): string[] {
  const [payload, signature] = id.split(".") as [string, string];
  const last = URL_ALPHABET.indexOf(signature.at(-1) as string);
  const lowBits = [1, 2, 3].map((b) => `${payload}.${signature.slice(0, -1)}${URL_ALPHABET[last + b]}`);
  const standard = `${payload}.${signature.replaceAll("-", "+").replaceAll("_", "/")}`;
  expect(standard).not.toBe(id);
  return [`${id}=`, `${id}==`, `${id}!`, `${id}%`, ...lowBits, standard];
}

/** A session whose signature has a `-` or `_`, so that its standard-alphabet spelling differs. */
async function sessionWithUrlCharacters(app: McpTestApp): Promise<string> {
  for (;;) {
    const id = await openSession(app.endpoint);
    if (/[-_]/.test(id.split(".")[1] as string)) return id;
  }
}

const stores: { name: string; make: () => Promise<SessionStore>; skip: boolean }[] = [
  { name: "memory", make: async () => new MemorySessionStore({ idleMs: IDLE }), skip: false },
  {
    name: "postgres",
    make: async () => new PgSessionStore(await databases.fresh(), { idleMs: IDLE, pruneIntervalMs: 0 }),
    skip: unavailable !== undefined,
  },
];

for (const { name, make, skip } of stores) {
  describeWithPackage(skip ? unavailable : undefined, `a DELETEd session id (${name} session store)`, () => {
    it("is refused with 404 in every spelling the decoder would accept", async () => {
      const app = await start(await make());
      const id = await sessionWithUrlCharacters(app);
      const spellings = respellings(id);
      // Before the DELETE none of them is the session either: only the issued spelling is.
      expect((await call(app, id)).status).toBe(200);
      for (const s of spellings) expect((await call(app, s)).status, s).toBe(404);
      expect((await end(app, id)).status).toBe(200);
      expect((await call(app, id)).status).toBe(404);
      for (const s of spellings) {
        expect((await call(app, s)).status, s).toBe(404);
        expect((await end(app, s)).status, s).toBe(404);
      }
    }, 60_000);
  });
}

describeWithPackage(unavailable, "DELETE /mcp while PostgreSQL is down", () => {
  it("answers 503 with Retry-After and why, and the session stays usable", async () => {
    const dead = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    pools.push(dead);
    const app = await start(new PgSessionStore(dead, { idleMs: IDLE, pruneIntervalMs: 0 }));
    const id = await openSession(app.endpoint);
    const res = await end(app, id);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/session store is unreachable/);
    expect((await call(app, id)).status).toBe(200);
  }, 60_000);
});

describe("a session id after a restart", () => {
  it("is served by a restarted process with the same MCP_SESSION_SECRET and refused (404) under another", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-restart-"));
    const env = (secret: string) => ({
      BASE_URL: BASE,
      DIST_DIR: built.distDir,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      MCP_SESSION_SECRET: secret,
    });
    const post = (url: string, id: string) =>
      postRpc(`${url}/mcp`, listTools, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
    const running: SidecarProcess[] = [];
    const start = async (secret: string) => {
      const p = await startSidecar(env(secret));
      running.push(p);
      return p;
    };
    try {
      const first = await start(SECRET);
      const id = await openSession(`${first.url}/mcp`);
      expect((await post(first.url, id)).status).toBe(200);
      await first.stop();
      const same = await start(SECRET);
      const reply = await post(same.url, id);
      expect(reply.status).toBe(200);
      expect(reply.body.result.tools.length).toBeGreaterThan(0);
      await same.stop();
      const other = await start(`${SECRET}-rotated`);
      expect((await post(other.url, id)).status).toBe(404);
    } finally {
      await Promise.all(running.map((p) => p.stop()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("is served by a restarted process without MCP_SESSION_SECRET, whose secret is kept in DATA_DIR", async () => {
    // The official SDK clients do not re-initialize after a 404: a secret drawn per process
    // broke every connected client at each restart.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-kept-secret-"));
    const env = {
      BASE_URL: BASE,
      DIST_DIR: built.distDir,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      MCP_SESSION_SECRET: "",
    };
    const running: SidecarProcess[] = [];
    try {
      const first = await startSidecar(env);
      running.push(first);
      const id = await openSession(`${first.url}/mcp`);
      await first.stop();
      const again = await startSidecar(env);
      running.push(again);
      const reply = await postRpc(`${again.url}/mcp`, listTools, {
        "mcp-session-id": id,
        "mcp-protocol-version": "2025-06-18",
      });
      expect(reply.status).toBe(200);
      expect((await stat(path.join(dataDir, "mcp-session-secret"))).mode & 0o777).toBe(0o600);
    } finally {
      await Promise.all(running.map((p) => p.stop()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
