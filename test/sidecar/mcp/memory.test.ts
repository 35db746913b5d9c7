import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient } from "../../helpers/mcp-app.ts";

/**
 * Issue 11 §1: with the SDK's per-session transport in JSON response mode, every answered POST
 * stayed in the session's stream map (modelcontextprotocol/typescript-sdk#2559), about 20 MB per
 * 100 searches of 100 reviews. Each POST is now served by a fresh server and transport, so a
 * session's length costs nothing. The server runs in a child process so its memory is its own.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../../content");
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

async function memoryAfterGc(): Promise<{ rss: number; heapUsed: number }> {
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
  ]);
  child.stderr.on("data", (d) => process.stderr.write(d));
  lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
}, 600_000);

afterAll(async () => {
  child?.stdin.end();
  child?.kill();
  if (dist) await rm(dist, { recursive: true, force: true });
});

it(`keeps RSS within 30 MB across ${CALLS} search_reviews calls of limit 100 in one session`, async () => {
  const { url } = await nextJson<{ url: string }>();
  const { client, transport } = await connectClient(`${url}/mcp`);
  const session = transport.sessionId;
  expect(session).toBeTruthy();
  const search = async (i: number) => {
    const result = (await client.callTool({
      name: "search_reviews",
      arguments: { limit: 100, offset: i % 30 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    return result;
  };
  const first = await search(0);
  expect((first.structuredContent as { reviews: unknown[] }).reviews).toHaveLength(100);
  // Warm-up: compiled schemas, JIT code and the search memo are one-time costs, not growth.
  for (let i = 1; i < WARM_UP; i++) await search(i);
  const before = await memoryAfterGc();
  for (let i = 0; i < CALLS; i++) await search(i);
  const after = await memoryAfterGc();
  expect(transport.sessionId).toBe(session);
  const mb = (b: number) => b / 1024 / 1024;
  console.info(
    `MCP memory over ${CALLS} calls in one session: RSS ${mb(before.rss).toFixed(1)} -> ${mb(after.rss).toFixed(1)} MB, ` +
      `heapUsed ${mb(before.heapUsed).toFixed(1)} -> ${mb(after.heapUsed).toFixed(1)} MB`,
  );
  expect(mb(after.rss - before.rss)).toBeLessThan(30);
  expect(mb(after.heapUsed - before.heapUsed)).toBeLessThan(10);
  await client.close();
}, 900_000);
