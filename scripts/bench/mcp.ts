import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT } from "./astro-build.ts";
import { runNode } from "./children.ts";
import { count, type Figure } from "./figures.ts";
import type { Profile } from "./profile.ts";
import { type SearchArgs, searchMix, searchPath } from "./queries.ts";
import { startServer } from "./server-process.ts";
import type { Workspace } from "./workspace.ts";

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * `search_reviews` through the SDK client against `GET /api/reviews/search` with the same queries,
 * one request at a time from one client each, on the same server. The two alternate query by
 * query, so drift in machine load touches both alike. Both clients parse the JSON they receive,
 * and both receive it uncompressed.
 */
async function latencyRatio(ws: Workspace, p: Profile): Promise<Figure> {
  const contentDir = await ws.content(p.middle);
  const { distDir } = await ws.dist(p.middle);
  const mix = await searchMix(contentDir);
  const server = await startServer({ distDir, contentDir });
  const client = new Client({ name: "public-reviews-bench", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    // As a real client does: tool output schemas are learnt here and then checked on every result.
    await client.listTools();
    const http = async (args: SearchArgs) => {
      // MCP answers are never compressed; fetch() would ask for gzip, which costs ~0.3 ms a side.
      const res = await fetch(`${server.url}${searchPath(args)}`, { headers: { "accept-encoding": "identity" } });
      if (res.status !== 200) throw new Error(`GET ${searchPath(args)}: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const mcp = async (args: SearchArgs) => {
      const result = await client.callTool({ name: "search_reviews", arguments: args });
      if (result.isError) throw new Error(`search_reviews ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
    };
    for (const args of mix) {
      await http(args);
      await mcp(args);
    }
    const httpMs: number[] = [];
    const mcpMs: number[] = [];
    for (let round = 0; round < p.mcpRounds; round++) {
      for (const args of mix) {
        httpMs.push(await timed(() => http(args)));
        mcpMs.push(await timed(() => mcp(args)));
      }
    }
    httpMs.sort((a, b) => a - b);
    mcpMs.sort((a, b) => a - b);
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    return {
      section: "mcp",
      name: `search_reviews p50 / HTTP search p50, sequential, ${count(p.middle)} reviews`,
      value: quantile(mcpMs, 0.5) / quantile(httpMs, 0.5),
      unit: "ratio",
      target: { op: "<=", value: 1.5 },
      detail: `${ms(quantile(mcpMs, 0.5))} / ${ms(quantile(httpMs, 0.5))}; p99 ${ms(quantile(mcpMs, 0.99))} vs ${ms(quantile(httpMs, 0.99))}; ${mcpMs.length} calls each`,
    };
  } finally {
    await client.close().catch(() => undefined);
    await server.stop();
  }
}

/**
 * Heap per active session, from a child that serves the app in-process with `--expose-gc`. The
 * young generation is capped (as in test/sidecar/mcp/memory.test.ts) so the RSS detail shows retained
 * memory rather than V8 growing its nursery to 128 MB under the load.
 */
async function sessionMemory(ws: Workspace, p: Profile): Promise<Figure> {
  const { distDir } = await ws.dist(p.middle);
  const stdout = await runNode(
    [
      "--expose-gc",
      "--max-semi-space-size=8",
      path.join(ROOT, "scripts/bench/mcp-sessions.ts"),
      distDir,
      String(p.mcpSessions),
    ],
    { cwd: ROOT },
  );
  const r = JSON.parse(stdout.trim().split("\n").at(-1) as string) as {
    sessions: number;
    heapBefore: number;
    heapAfter: number;
    rssBefore: number;
    rssAfter: number;
    calls: number;
  };
  const kib = (b: number) => b / 1024;
  return {
    section: "mcp",
    name: `heap per active MCP session (${count(r.sessions)} sessions, ${r.calls} searches of 100 each)`,
    value: kib(r.heapAfter - r.heapBefore) / r.sessions,
    unit: "KiB",
    detail:
      `heapUsed after forced GC ${Math.round(kib(r.heapBefore) / 1024)} → ${Math.round(kib(r.heapAfter) / 1024)} MiB; ` +
      `RSS +${(kib(r.rssAfter - r.rssBefore) / r.sessions).toFixed(1)} KiB per session; no target`,
  };
}

export async function benchMcp(ws: Workspace, p: Profile): Promise<Figure[]> {
  return [await latencyRatio(ws, p), await sessionMemory(ws, p)];
}
