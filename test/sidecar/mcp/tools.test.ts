import { type Client, LATEST_PROTOCOL_VERSION, type StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import pkg from "../../../package.json" with { type: "json" };
import { REVIEW_TEXT_NOTE } from "../../../sidecar/mcp/instructions.ts";
import { MCP_TOOLS, mcpPathItem } from "../../../src/api/openapi-mcp.ts";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { SEARCH_PARAMS } from "../../../src/search/query.ts";
import type { McpTestApp } from "../../helpers/mcp-app.ts";
import { servedTools, TOOLS_BASE } from "../../helpers/mcp-tools.ts";

const BASE = TOOLS_BASE;
const served = servedTools();
const { call, httpJson } = served;
let app: McpTestApp;
let dataset: ReviewsDataset;
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(() => {
  ({ app, dataset, client, transport } = served);
});

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
