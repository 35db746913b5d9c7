import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient } from "../../helpers/mcp-app.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/**
 * Issue 11 §1: with the SDK's per-session transport in JSON response mode, every answered POST
 * stayed in the session's stream map (modelcontextprotocol/typescript-sdk#2559), about 20 MB per
 * 100 searches of 100 reviews. Each POST is now served by a fresh server and transport, so a
 * session's length costs nothing. The server runs in a child process so its memory is its own.
 *
 * Issue 23: every call is distinct and the result store is off (RESPONSE_CACHE_MB=0), so each one
 * is parsed, searched, serialised and answered by the SDK: nothing is a cache hit. Both eras: a
 * 2025-06-18 session, and the stateless 2026-07-28 era (a fresh server per request, no session).
 */

const CONTENT = PROJECT_CONTENT;
const CALLS = 5_000;
const WARM_UP = 500;
/**
 * V8 sizes the young generation to the allocation rate: under this load it grows to 128 MB of
 * committed pages that fill in over thousands of calls, whatever the session holds. Capping the
 * semi-space (8 MB) takes that VM cache out of the figure, so RSS measures what is retained.
 * heapUsed after GC, which needs no cap, is asserted too.
 */
const CHILD_FLAGS = ["--expose-gc", "--max-semi-space-size=8"];
let dist: string;
let child: ChildProcessWithoutNullStreams;
let lines: AsyncIterator<string>;

async function nextJson<T>(): Promise<T> {
  const { value, done } = await lines.next();
  if (done) throw new Error("the MCP child exited");
  return JSON.parse(value) as T;
}

async function memoryAfterGc(): Promise<{ rss: number; heapUsed: number; heapTotal: number; external: number }> {
  child.stdin.write("gc\n");
  return nextJson();
}

beforeAll(async () => {
  const build = await buildSite(CONTENT);
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  child = spawn(process.execPath, [
    ...CHILD_FLAGS,
    path.resolve(import.meta.dirname, "../../helpers/mcp-child.ts"),
    dist,
    "0",
  ]);
  child.stderr.on("data", (d) => process.stderr.write(d));
  lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
}, 1_500_000);

afterAll(async () => {
  child?.stdin.end();
  child?.kill();
  if (dist) await rm(dist, { recursive: true, force: true });
});

/** The i-th distinct arguments: every (limit, offset) pair differs, so no two calls share a query. */
const argsOf = (i: number) => ({ limit: 100 - (Math.floor(i / 300) % 100), offset: i % 300 });

let url: string;

describe.each([
  ["a 2025-06-18 session", "legacy"],
  ["the stateless 2026-07-28 era", "modern"],
] as const)("%s", (_name, era) => {
  it(`keeps the heap and its buffers within 10 MB each across ${CALLS} distinct search_reviews calls`, async () => {
    url ??= (await nextJson<{ url: string }>()).url;
    const { client, transport } = await connectClient(`${url}/mcp`, era);
    expect(client.getProtocolEra()).toBe(era);
    const session = transport.sessionId;
    if (era === "legacy") expect(session).toBeTruthy();
    else expect(session).toBeUndefined();
    const search = async (i: number) => {
      const result = (await client.callTool({ name: "search_reviews", arguments: argsOf(i) })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      return result;
    };
    const first = await search(0);
    expect((first.structuredContent as { reviews: unknown[] }).reviews).toHaveLength(100);
    // Warm-up: compiled schemas and JIT code are one-time costs, not growth.
    for (let i = 1; i < WARM_UP; i++) await search(i);
    const before = await memoryAfterGc();
    for (let i = WARM_UP; i < WARM_UP + CALLS; i++) await search(i);
    const after = await memoryAfterGc();
    expect(transport.sessionId).toBe(session);
    const mb = (b: number) => b / 1024 / 1024;
    console.info(
      `MCP memory over ${CALLS} distinct calls (${era}): RSS ${mb(before.rss).toFixed(1)} -> ${mb(after.rss).toFixed(1)} MB, ` +
        `heapUsed ${mb(before.heapUsed).toFixed(1)} -> ${mb(after.heapUsed).toFixed(1)} MB, ` +
        `heapTotal ${mb(before.heapTotal).toFixed(1)} -> ${mb(after.heapTotal).toFixed(1)} MB, ` +
        `external ${mb(before.external).toFixed(1)} -> ${mb(after.external).toFixed(1)} MB`,
    );
    // What is retained after a full collection: objects on the heap and the buffers they hold.
    // RSS is logged, not asserted: with every call distinct, the allocator keeps pages it freed
    // (tens of MB that a capped heap does not reach; see test/e2e/mcp-heap-cap.test.ts).
    expect(mb(after.heapUsed - before.heapUsed)).toBeLessThan(10);
    expect(mb(after.external - before.external)).toBeLessThan(10);
    await client.close();
  }, 2_250_000);
});
