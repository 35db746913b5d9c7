import { readFile } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect } from "vitest";
import type { ReviewsDataset } from "../../src/content/records.ts";
import { buildBeforeAll } from "./build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "./mcp-app.ts";

/** The public origin the MCP tool suites' build is made for. */
export const TOOLS_BASE = "https://reviews.test";

const CONTENT = path.resolve(import.meta.dirname, "../fixtures/basic-content");

/**
 * For a test file of MCP tool suites, ready before its tests and closed after them: the app over the
 * basic fixture, the build's /reviews.json (what the tools' answers are compared with), and an SDK
 * client that listed the tools, so it validates every result against its output schema.
 */
export function servedTools() {
  const built = buildBeforeAll(CONTENT, { BASE_URL: TOOLS_BASE });
  let state:
    | { app: McpTestApp; dataset: ReviewsDataset; client: Client; transport: StreamableHTTPClientTransport }
    | undefined;
  beforeAll(async () => {
    const dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
    const app = await startMcpApp(built.distDir, { env: { BASE_URL: TOOLS_BASE } });
    const { client, transport } = await connectClient(app.endpoint);
    state = { app, dataset, client, transport };
    // Caches the output schemas, so every callTool is also validated by the client.
    await client.listTools();
  });
  afterAll(async () => {
    await state?.client.close();
    await state?.app.close();
  });
  const get = () => {
    if (!state) throw new Error("servedTools: read before its beforeAll ran");
    return state;
  };
  return {
    get app() {
      return get().app;
    },
    get dataset() {
      return get().dataset;
    },
    get client() {
      return get().client;
    },
    get transport() {
      return get().transport;
    },
    /**
     * Calls a tool; `json` is its text block parsed. A success carries the same JSON as
     * `structuredContent`; an error carries none (SDK clients would validate it against the schema).
     */
    async call(name: string, args: Record<string, unknown> = {}) {
      const result = (await get().client.callTool({ name, arguments: args })) as CallToolResult;
      const content = result.content as { type: string; text: string }[];
      expect(content).toHaveLength(1);
      expect(content[0]?.type).toBe("text");
      const json = JSON.parse(content[0]?.text ?? "");
      if (result.isError) expect(result.structuredContent).toBeUndefined();
      else expect(result.structuredContent).toEqual(json);
      return { ...result, json };
    },
    /** GETs a REST path of the same app: its status and JSON body. */
    async httpJson(p: string) {
      const res = await fetch(`${get().app.url}${p}`);
      return { status: res.status, body: await res.json() };
    },
  };
}
