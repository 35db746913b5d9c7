import { LiveBuild } from "../../sidecar/build/live-build.ts";
import { resultBytesFor } from "../../sidecar/build/result-store.ts";
import { SnapshotStore } from "../../sidecar/build/snapshot-store.ts";
import { createApp } from "../../sidecar/http/app.ts";
import { listen } from "../../sidecar/http/server.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { createMcpRouter } from "../../sidecar/mcp/router.ts";
import { loadConfig } from "../../src/config.ts";

/**
 * Child process of the MCP bench, run with `--expose-gc`: `node --expose-gc mcp-sessions.ts DIST N`.
 * Serves the app in this process so its heap can be read, warms up with `WARM` sessions (so
 * one-time costs such as compiled schemas are in the baseline), then opens N more *active*
 * sessions, the way a client does (initialize, the initialized notification) and each makes
 * `CALLS` `search_reviews {limit: 100}` calls; none is ended. Prints the heap growth as JSON.
 * Sessions are signed ids and each POST has its own server, so the growth should be about zero.
 */

const WARM = 10;
const CALLS = 5;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("mcp-sessions.ts must run with node --expose-gc");

function settledHeap(): number {
  // Twice: the first pass can leave garbage that only becomes collectable after finalizers run.
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function activeSession(url: string, i: number): Promise<void> {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: `bench-${i}`, version: "1.0.0" } },
    }),
  });
  await init.text();
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !id) throw new Error(`initialize: expected 200 with Mcp-Session-Id, got ${init.status}`);
  const done = await fetch(url, {
    method: "POST",
    headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await done.text();
  if (done.status !== 202) throw new Error(`notifications/initialized: expected 202, got ${done.status}`);
  for (let c = 0; c < CALLS; c++) {
    const call = await fetch(url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2 + c,
        method: "tools/call",
        params: { name: "search_reviews", arguments: { limit: 100, offset: c } },
      }),
    });
    const body = (await call.json()) as { result?: { isError?: boolean } };
    if (call.status !== 200 || !body.result || body.result.isError) {
      throw new Error(`tools/call: expected a result, got ${call.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  }
}

const [distDir, n] = [process.argv[2] as string, Number(process.argv[3])];
const config = loadConfig({
  LOG_LEVEL: "silent",
  DIST_DIR: distDir,
  RATE_LIMIT_PER_MINUTE: "10000000",
});
const logger = createLogger(config.LOG_LEVEL);
const store = await SnapshotStore.open(distDir, { resultBytes: resultBytesFor(config) });
const live = new LiveBuild({ store, logger });
const mcp = createMcpRouter({ config, store, builds: live, logger });
const running = await listen(createApp({ config, logger, store, serveStatic: false, mcp }), 0, "127.0.0.1");
const url = `${running.url}/mcp`;
try {
  for (let i = 0; i < WARM; i++) await activeSession(url, i);
  const before = settledHeap();
  const rssBefore = process.memoryUsage().rss;
  for (let i = 0; i < n; i++) await activeSession(url, WARM + i);
  const after = settledHeap();
  const rssAfter = process.memoryUsage().rss;
  process.stdout.write(
    `${JSON.stringify({ sessions: n, heapBefore: before, heapAfter: after, rssBefore, rssAfter, calls: CALLS })}\n`,
  );
} finally {
  await mcp.close();
  await running.close(100);
}
