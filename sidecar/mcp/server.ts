import { type CacheHint, McpServer } from "@modelcontextprotocol/server";
import pkg from "../../package.json" with { type: "json" };
import type { Business } from "../../src/content/records.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { ArgumentsAsSent } from "./arguments-as-sent.ts";
import { registerInsights } from "./insights.ts";
import { instructionsFor } from "./instructions.ts";
import { registerDatasetResources } from "./resources.ts";
import { registerLogTool } from "./review-log.ts";
import { registerReviewTools } from "./tools.ts";

export const SERVER_INFO = { name: pkg.name, version: pkg.version };

/**
 * The datasets are served with `Cache-Control: public, max-age=300` (src/http-headers/manifest.ts), and the
 * lists change only with a new build, so 2026-07-28 clients may cache them as long, shared.
 */
export const CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: "public" };

/** Instructions per business profile: a snapshot's profile never changes, and a server is built per request. */
const instructionsOf = new WeakMap<Business, string>();

function instructions(business: Business): string {
  let text = instructionsOf.get(business);
  if (text === undefined) {
    text = instructionsFor(business);
    instructionsOf.set(business, text);
  }
  return text;
}

// Nothing here changes at run time but the reviews (resources/updated), so no list ever changes.
const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
  completions: {},
};

/**
 * The server behind a 2025 session's GET stream, which only sends change notices: it answers no
 * request, so it holds no build, which a stream open for days would keep in memory.
 */
export function createNoticeServer(): McpServer {
  return new McpServer(SERVER_INFO, { capabilities: CAPABILITIES });
}

export interface McpServerDeps {
  /** The build this request answers from, pinned when it arrived (as the HTTP routes pin theirs). */
  snapshot: Snapshot;
  baseUrl: string;
  /** The `tools/call` arguments as parsed from this request's body (tools.ts `argumentsAsSent`). */
  argumentsAsSent?: unknown;
}

/**
 * A fresh server for one HTTP request (both eras are served per request), answering from that
 * request's snapshot, so one request never mixes two builds; building one is cheap because the
 * tools close over shared data and keep nothing themselves.
 */
export function createMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    // Named from business.yaml: the same code serves any practice's content.
    instructions: instructions(deps.snapshot.index.dataset.business),
    capabilities: CAPABILITIES,
    cacheHints: {
      "tools/list": CACHE_HINT,
      "resources/list": CACHE_HINT,
      "resources/templates/list": CACHE_HINT,
      "resources/read": CACHE_HINT,
      "server/discover": CACHE_HINT,
    },
  });
  const tools = { ...deps, asSent: new ArgumentsAsSent(deps.argumentsAsSent) };
  registerReviewTools(server, tools);
  registerDatasetResources(server, deps);
  registerInsights(server, tools);
  registerLogTool(server, tools);
  return server;
}
