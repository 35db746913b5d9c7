import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBeforeAll } from "../helpers/build-site.ts";
import { descendants, isAlive, type NpmProcess, portClosed, startNpm } from "../helpers/npm-process.ts";

/**
 * Signals as a container runtime or systemd sends them: to the PID of `npm run sidecar`, not to
 * node. Before `exec` in the npm scripts, `sh -c` swallowed SIGTERM and node kept listening.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
let data: string;
const started: NpmProcess[] = [];

const built = buildBeforeAll(FIXTURE);

beforeAll(async () => {
  data = await mkdtemp(path.join(os.tmpdir(), "pr-signals-data-"));
});

afterAll(async () => {
  for (const p of started) {
    for (const pid of [p.pid, ...descendants(p.pid)]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
  await rm(data, { recursive: true, force: true });
});

async function sidecar(): Promise<NpmProcess> {
  const p = await startNpm(
    ["run", "sidecar"],
    { DIST_DIR: built.distDir, DATA_DIR: data, LOG_LEVEL: "info", BASE_URL: "http://localhost:4321" },
    120_000,
  );
  started.push(p);
  return p;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not happen`);
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe("signals to the npm process", () => {
  it("SIGTERM lets an MCP POST still uploading finish, with Connection: close, then stops", async () => {
    const npm = await sidecar();
    const client = new Client({ name: "signals-test", version: "0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${npm.url}/mcp`));
    await client.connect(transport);
    const headers: http.OutgoingHttpHeaders = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(transport.sessionId ? { "mcp-session-id": transport.sessionId } : {}),
      ...(transport.protocolVersion ? { "mcp-protocol-version": transport.protocolVersion } : {}),
    };
    const body = Buffer.from(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "search_reviews", arguments: { limit: 2 } },
      }),
    );
    const agent = new http.Agent({ keepAlive: true });
    const tree = descendants(npm.pid);
    const answer = new Promise<RawResponse>((resolve, reject) => {
      const req = http.request(`${npm.url}/mcp`, {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": body.length },
      });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      // Half the body now; the rest only once the server has begun shutting down.
      req.write(body.subarray(0, 20));
      req.once("socket", (socket) => {
        socket.once("connect", async () => {
          await new Promise((r) => setTimeout(r, 200));
          process.kill(npm.pid, "SIGTERM");
          await until(() => npm.stdout().includes("shutting down"), "shutdown");
          req.end(body.subarray(20));
        });
      });
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe("close");
    expect(res.body).toContain('"id":7');
    expect(res.body).toContain('"result"');
    agent.destroy();
    await client.close().catch(() => undefined);
    expect(await npm.exited).toBe(0);
    expect(await portClosed(npm.url)).toBe(true);
    expect(tree.filter(isAlive)).toEqual([]);
  });

  it("SIGINT to the npm process stops the server and leaves no orphan", async () => {
    const npm = await sidecar();
    expect((await fetch(`${npm.url}/healthz`)).status).toBe(200);
    const tree = descendants(npm.pid);
    expect(tree.length).toBeGreaterThan(0);
    process.kill(npm.pid, "SIGINT");
    await npm.exited;
    expect(await portClosed(npm.url)).toBe(true);
    expect(tree.filter(isAlive)).toEqual([]);
  });
});
