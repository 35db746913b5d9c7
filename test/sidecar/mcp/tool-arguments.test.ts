import type { Client } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { type McpTestApp, openSession, postRpc } from "../../helpers/mcp-app.ts";
import { servedTools } from "../../helpers/mcp-tools.ts";

/**
 * The MCP tools' arguments: an unknown one, `__proto__`, and every invalid value of every tool are
 * refused with the documented JSON error, as the REST routes refuse them.
 */

const served = servedTools();
const { call, httpJson } = served;
let app: McpTestApp;
let dataset: ReviewsDataset;
let client: Client;

beforeAll(() => {
  ({ app, dataset, client } = served);
});

describe("MCP server over streamable HTTP", () => {
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
});
