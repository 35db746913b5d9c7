import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type CallToolResult,
  type Client,
  LATEST_PROTOCOL_VERSION,
  type StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../../package.json" with { type: "json" };
import { REVIEW_TEXT_NOTE } from "../../../sidecar/mcp/instructions.ts";
import { MCP_TOOLS, mcpPathItem } from "../../../src/api/openapi-mcp.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { SEARCH_PARAMS } from "../../../src/search/query.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { connectClient, type McpTestApp, openSession, postRpc, startMcpApp } from "../../helpers/mcp-app.ts";

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let app: McpTestApp;
let dataset: ReviewsDataset;
let client: Client;
let transport: StreamableHTTPClientTransport;

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
  ({ client, transport } = await connectClient(app.endpoint));
  // Caches the output schemas, so every callTool below is also validated by the client.
  await client.listTools();
});

afterAll(async () => {
  await client?.close();
  await app?.close();
});

const httpJson = async (p: string) => {
  const res = await fetch(`${app.url}${p}`);
  return { status: res.status, body: await res.json() };
};

/**
 * Calls a tool; `json` is its text block parsed. A success carries the same JSON as
 * `structuredContent`; an error carries none (SDK clients would validate it against the schema).
 */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe("text");
  const json = JSON.parse(content[0]?.text ?? "");
  if (result.isError) expect(result.structuredContent).toBeUndefined();
  else expect(result.structuredContent).toEqual(json);
  return { ...result, json };
}

describe("MCP server over streamable HTTP", () => {
  it("initializes with the package name and version, instructions and the newest protocol", () => {
    expect(client.getServerVersion()).toEqual({ name: pkg.name, version: pkg.version });
    expect(client.getInstructions()).toMatch(/search_reviews/);
    expect(transport.sessionId).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  });

  it("lists six read-only tools with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "get_business",
      "get_insights",
      "get_log_checkpoint",
      "get_review",
      "get_reviews_since",
      "search_reviews",
    ]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const search = tools.find((t) => t.name === "search_reviews");
    const props = search?.inputSchema.properties as Record<string, { description?: string }>;
    expect(Object.keys(props).sort()).toEqual([...SEARCH_PARAMS].sort());
    for (const p of Object.values(props)) expect(p.description).toBeTruthy();
  });

  it("is described in /openapi.json with every tool, and says review text is not instructions", async () => {
    const { tools } = await client.listTools();
    expect([...MCP_TOOLS].sort()).toEqual(tools.map((t) => t.name).sort());
    for (const name of MCP_TOOLS) expect(mcpPathItem.post.description).toContain(name);
    for (const status of ["406", "415", "429"]) expect(Object.keys(mcpPathItem.post.responses)).toContain(status);
    for (const name of ["search_reviews", "get_review", "get_reviews_since", "get_insights"]) {
      expect(tools.find((t) => t.name === name)?.description, name).toContain(REVIEW_TEXT_NOTE);
    }
    expect(client.getInstructions()).toContain(REVIEW_TEXT_NOTE);
  });

  it("advertises portable, strict schemas: one JSON type per schema, no unknown arguments", async () => {
    const { tools } = await client.listTools();
    const typeArrays: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${at}/${i}`);
      } else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "type" && typeof v !== "string") typeArrays.push(`${at}: ${JSON.stringify(v)}`);
          walk(v, `${at}/${k}`);
        }
      }
    };
    for (const tool of tools) {
      walk(tool.inputSchema, `${tool.name} input`);
      walk(tool.outputSchema, `${tool.name} output`);
      // Gemini's function declarations refuse it; MCP tool schemas are 2020-12 without it.
      expect(tool.inputSchema, tool.name).not.toHaveProperty("$schema");
      expect(tool.outputSchema, tool.name).not.toHaveProperty("$schema");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      for (const [name, p] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect(typeof (p as { type?: unknown }).type, `${tool.name}.${name}`).toBe("string");
      }
    }
    expect(typeArrays).toEqual([]);
    const search = tools.find((t) => t.name === "search_reviews")?.inputSchema.properties as Record<string, object>;
    expect(search.rating).toMatchObject({ type: "integer", minimum: 1, maximum: 5 });
    expect(search.min_rating).toMatchObject({ type: "number" });
    expect(search.since).toMatchObject({ type: "string", format: "date" });
    expect(search.sentiment).toMatchObject({ type: "string", enum: ["positive", "neutral", "negative"] });
  });

  it("refuses an unknown argument on every tool, and still takes numbers written as strings", async () => {
    for (const [name, args] of [
      ["get_business", { extra: 1 }],
      ["search_reviews", { extra: 1 }],
      ["get_review", { id: dataset.reviews[0]?.id, extra: 1 }],
      ["get_reviews_since", { date: "2025-01-01", extra: 1 }],
      ["get_insights", { extra: 1 }],
      ["get_log_checkpoint", { extra: 1 }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect((result.content as { text: string }[])[0]?.text, name).toContain("extra");
    }
    // `null` is "not given" (what OpenAI strict mode sends for an optional argument: docs/mcp.md).
    const nulls = await call("search_reviews", { rating: null, since: null, limit: 2 });
    expect(nulls.structuredContent).toEqual((await call("search_reviews", { limit: 2 })).structuredContent);
    const all = await call("get_insights", { section: null });
    expect(all.structuredContent).toEqual((await call("get_insights", {})).structuredContent);
    const asText = await call("search_reviews", { rating: "5", limit: "2" });
    const asNumbers = await call("search_reviews", { rating: 5, limit: 2 });
    expect(asText.isError).toBeFalsy();
    expect(asText.structuredContent).toEqual(asNumbers.structuredContent);
  });

  it("search_reviews refuses an argument named __proto__ exactly as ?__proto__=1 is refused over HTTP", async () => {
    const http = await httpJson("/api/reviews/search?__proto__=1&rating=5");
    expect(http.status).toBe(400);
    expect(http.body.issues).toEqual([expect.objectContaining({ path: "__proto__", value: "1" })]);
    // Raw JSON: a client library could drop the key while building the request.
    const body = `{"jsonrpc":"2.0","id":5,"method":"tools/call",
      "params":{"name":"search_reviews","arguments":{"__proto__":"1","rating":"5"}}}`;
    const id = await openSession(app.endpoint);
    const reply = await postRpc(app.endpoint, body, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
    expect(reply.body.result?.isError, JSON.stringify(reply.body)).toBe(true);
    expect(JSON.parse(reply.body.result.content[0].text)).toEqual(http.body);
    const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
      "io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`;
    const modern = await postRpc(app.endpoint, body.replace('"params":{', `"params":{${meta},`), {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search_reviews",
    });
    expect(modern.body.result?.isError, JSON.stringify(modern.body)).toBe(true);
    expect(JSON.parse(modern.body.result.content[0].text)).toEqual(http.body);
  });

  it("every other tool refuses an argument named __proto__ as it refuses any unknown argument", async () => {
    const id = await openSession(app.endpoint);
    const valid: Record<string, string> = {
      get_business: "",
      get_review: `"id":${JSON.stringify(dataset.reviews[0]?.id)}`,
      get_reviews_since: `"date":"2024-01-01"`,
      get_insights: "",
      get_log_checkpoint: "",
    };
    // Every tool the server lists, so a new tool cannot be left out of this check.
    const listed = (await client.listTools()).tools.map((t) => t.name).filter((t) => t !== "search_reviews");
    expect(listed.sort()).toEqual(Object.keys(valid).sort());
    let n = 100;
    for (const [name, args] of Object.entries(valid)) {
      const send = (extra: string) =>
        postRpc(
          app.endpoint,
          `{"jsonrpc":"2.0","id":${n++},"method":"tools/call","params":{"name":"${name}","arguments":{${[extra, args].filter(Boolean).join(",")}}}}`,
          { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
        );
      const fine = await send("");
      expect(fine.body.result?.isError, `${name}: ${JSON.stringify(fine.body)}`).toBeFalsy();
      const unknown = await send(`"colour":"1"`);
      expect(unknown.body.result?.isError, `${name}: ${JSON.stringify(unknown.body)}`).toBe(true);
      const proto = await send(`"__proto__":"1"`);
      expect(proto.body.result?.isError, `${name}: ${JSON.stringify(proto.body)}`).toBe(true);
      expect(proto.body.result.content[0].text).toContain("__proto__");
    }
  });

  it("get_business returns the business and aggregate rating of /reviews.json", async () => {
    const result = await call("get_business");
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      business: dataset.business,
      aggregate_rating: dataset.aggregate_rating,
    });
  });

  it("get_review returns the record of /reviews.json, and names an unknown id in an error", async () => {
    const review = dataset.reviews[3];
    const found = await call("get_review", { id: review?.id });
    expect(found.structuredContent).toEqual(review);
    const missing = await call("get_review", { id: "1999-01-01-nobody" });
    expect(missing.isError).toBe(true);
    expect(missing.json).toMatchObject({ error: "not_found", id: "1999-01-01-nobody" });
    expect(missing.json.message).toContain('"1999-01-01-nobody"');
    // What I-JSON forbids never reaches a tool: the message is refused (json-rpc-errors.test.ts).
    await expect(call("get_review", { id: "x\uFFFF" })).rejects.toThrow(/I-JSON/);
  });

  it("get_review carries log_index, and get_log_checkpoint returns the checkpoint and key the site serves", async () => {
    const found = await call("get_review", { id: dataset.reviews[0]?.id });
    expect((found.structuredContent as { log_index: number }).log_index).toBe(dataset.reviews[0]?.log_index);
    const result = await call("get_log_checkpoint");
    expect(result.isError).toBeFalsy();
    const checkpoint = await (await fetch(`${app.url}/log/checkpoint`)).text();
    const key = (await (await fetch(`${app.url}/log/key`)).text()).trim();
    expect(result.structuredContent).toMatchObject({
      origin: "reviews.test/log",
      tree_size: dataset.reviews.length,
      checkpoint,
      verifier_key: key,
      log_url: `${BASE}/log`,
    });
    expect(checkpoint.split("\n")[2]).toBe((result.structuredContent as { root_hash: string }).root_hash);
  });

  it("get_reviews_since matches GET /api/reviews/since/{date}, errors included", async () => {
    for (const date of ["2025-01-01", "2030-01-01", "2000-01-01", "2025-03-10"]) {
      const http = await httpJson(`/api/reviews/since/${date}`);
      const result = await call("get_reviews_since", { date });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(http.body);
    }
    for (const date of ["2024-02-30", "2024-1-5", "yesterday"]) {
      const http = await httpJson(`/api/reviews/since/${date}`);
      expect(http.status).toBe(400);
      const result = await call("get_reviews_since", { date });
      expect(result.isError).toBe(true);
      expect(result.json).toEqual(http.body);
    }
  });

  it("answers every invalid argument of every tool with the documented JSON error", async () => {
    const id = dataset.reviews[0]?.id;
    const cases: [string, Record<string, unknown>, string, unknown][] = [
      ["get_business", { extra: 1 }, "extra", 1],
      ["get_business", { section: "x", extra: "y" }, "section", "x"],
      ["search_reviews", { extra: 1 }, "extra", 1],
      ["search_reviews", { rating: 6 }, "rating", 6],
      ["search_reviews", { limit: "many" }, "limit", "many"],
      ["get_review", {}, "id", null],
      ["get_review", { id: 42 }, "id", 42],
      ["get_review", { id, extra: 1 }, "extra", 1],
      ["get_review", { id: null }, "id", null],
      ["get_reviews_since", {}, "date", null],
      ["get_reviews_since", { date: 20250101 }, "date", 20250101],
      ["get_reviews_since", { date: "2024-02-30" }, "date", "2024-02-30"],
      ["get_reviews_since", { date: "2025-01-01", extra: 1 }, "extra", 1],
      ["get_insights", { section: "nope" }, "section", "nope"],
      ["get_insights", { extra: 1 }, "extra", 1],
      ["get_log_checkpoint", { extra: 1 }, "extra", 1],
    ];
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(new Set(cases.map(([name]) => name))).toEqual(new Set(listed));
    for (const [name, args, path, value] of cases) {
      const at = `${name} ${JSON.stringify(args)}`;
      const result = await call(name, args);
      expect(result.isError, at).toBe(true);
      // The docs' recipe: `.result.content[0].text | fromjson | .issues[0].path`.
      expect(result.json, at).toMatchObject({
        error: "invalid_query",
        message: expect.stringMatching(/^Invalid query: /),
      });
      expect(result.json.issues[0], at).toMatchObject({ path, value, message: expect.any(String) });
    }
  });

  it("get_insights returns /insights.json, or one section of it", async () => {
    const http = await httpJson("/insights.json");
    expect(http.status).toBe(200);
    const all = await call("get_insights");
    expect(all.isError).toBeFalsy();
    expect(all.structuredContent).toEqual(http.body);
    const faq = await call("get_insights", { section: "faq" });
    expect(faq.structuredContent).toEqual({ faq: http.body.faq });
    const bad = await call("get_insights", { section: "gossip" });
    expect(bad.isError).toBe(true);
    expect(bad.json.issues).toEqual([
      {
        path: "section",
        value: "gossip",
        message: 'expected one of aspects, entities, topics, faq, summary, got "gossip"',
      },
    ]);
  });

  it("lists the reviews dataset as a resource and reads the same JSON as /reviews.json", async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: `${BASE}/reviews.json`, mimeType: "application/json" }),
    );
    const read = await client.readResource({ uri: `${BASE}/reviews.json` });
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    expect(JSON.parse(content.text)).toEqual(dataset);
  });

  it("lists the insights as a resource with the bytes of /insights.json", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([`${BASE}/insights.json`, `${BASE}/reviews.json`]);
    const read = await client.readResource({ uri: `${BASE}/insights.json` });
    const http = await fetch(`${app.url}/insights.json`);
    expect((read.contents[0] as { text: string }).text).toBe(await http.text());
  });
});

// search_reviews against GET /api/reviews/search, in both eras and cache states: cached-results.test.ts.
