import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../helpers/build-site.ts";
import { connectClient } from "../helpers/mcp-app.ts";
import { descendants, isAlive, type NpmProcess, startNpm } from "../helpers/npm-process.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * Issue 23, as it will be checked: `npm run sidecar` with its V8 heap capped at 96 MB and the
 * result store off answers 10,000 distinct MCP calls in each protocol era without an error. Every
 * call is parsed, searched, serialised and answered by the SDK, so anything a call left behind
 * would add up to an out-of-memory crash well before the end. Calls run eight at a time, as a few
 * busy assistants would send them.
 */

const CONTENT = PROJECT_CONTENT;
const CALLS = 10_000;
const IN_FLIGHT = 8;
let dist: string;
let data: string;
let npm: NpmProcess;

beforeAll(async () => {
  const build = await buildSite(CONTENT);
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  data = await mkdtemp(path.join(os.tmpdir(), "pr-heap-cap-data-"));
  npm = await startNpm(["run", "sidecar"], {
    DIST_DIR: dist,
    DATA_DIR: data,
    BASE_URL: "http://localhost:4321",
    LOG_LEVEL: "warn",
    RESPONSE_CACHE_MB: "0",
    RATE_LIMIT_PER_MINUTE: "10000000",
    NODE_OPTIONS: "--max-old-space-size=96",
  });
}, 1_500_000);

afterAll(async () => {
  if (npm) for (const pid of [npm.pid, ...descendants(npm.pid)]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  if (data) await rm(data, { recursive: true, force: true });
  if (dist) await rm(dist, { recursive: true, force: true });
});

/** The i-th distinct arguments: no two calls of a run share a query. */
const argsOf = (i: number) => ({ limit: 100 - (Math.floor(i / 300) % 100), offset: i % 300 });

describe.each(["legacy", "modern"] as const)("npm run sidecar with a 96 MB heap, %s era", (era) => {
  it(`answers ${CALLS} distinct search_reviews calls without an error`, async () => {
    const { client } = await connectClient(`${npm.url}/mcp`, era);
    expect(client.getProtocolEra()).toBe(era);
    let next = 0;
    let answered = 0;
    const worker = async () => {
      while (next < CALLS) {
        const i = next++;
        const result = (await client.callTool({ name: "search_reviews", arguments: argsOf(i) })) as CallToolResult;
        expect(result.isError, JSON.stringify(result.content).slice(0, 200)).toBeFalsy();
        answered++;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await client.close();
    expect(answered).toBe(CALLS);
    expect(isAlive(npm.pid)).toBe(true);
    expect(npm.stderr()).not.toMatch(/heap out of memory|FATAL ERROR/);
  }, 2_250_000);
});
