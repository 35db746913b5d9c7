import { createInterface } from "node:readline";
import { getHeapSpaceStatistics } from "node:v8";
import { LiveBuild } from "../../sidecar/build/live-build.ts";
import { resultBytesFor } from "../../sidecar/build/result-store.ts";
import { SnapshotStore } from "../../sidecar/build/snapshot-store.ts";
import { createApp } from "../../sidecar/http/app.ts";
import { listen } from "../../sidecar/http/server.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { createMcpRouter } from "../../sidecar/mcp/router.ts";
import { loadConfig } from "../../src/config.ts";

/**
 * The app with /mcp in a child process of its own, so a test can read the server's memory alone:
 * `node --expose-gc test/helpers/mcp-child.ts DIST_DIR [RESPONSE_CACHE_MB]`. Prints `{"url"}` once listening; each
 * `gc` line on stdin forces a full collection and prints `{"rss","heapUsed"}` in bytes. gc is
 * reachable only this way, in this test child, never from the server's HTTP surface.
 */

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("mcp-child.ts must run with node --expose-gc");

const [distDir, cacheMb] = process.argv.slice(2) as [string, string | undefined];
const config = loadConfig({
  LOG_LEVEL: "silent",
  DIST_DIR: distDir,
  RATE_LIMIT_PER_MINUTE: "10000000",
  ...(cacheMb === undefined ? {} : { RESPONSE_CACHE_MB: cacheMb }),
});
const logger = createLogger(config.LOG_LEVEL);
const store = await SnapshotStore.open(distDir, { resultBytes: resultBytesFor(config) });
const live = new LiveBuild({ store, logger });
const mcp = createMcpRouter({ config, store, builds: live, logger });
const running = await listen(createApp({ config, logger, store, serveStatic: false, mcp }), 0, "127.0.0.1");
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== "gc") continue;
  // Twice: the first pass can leave garbage that only becomes collectable after finalizers run.
  gc();
  gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 1048576)]),
  );
  process.stdout.write(`${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers, spaces })}\n`);
}
await mcp.close();
await running.close(100);
