import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LISTED_ISSUES } from "../../../src/search/query-service.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * An error body lists at most MAX_LISTED_ISSUES issues, the last saying how many more there were:
 * each unknown name's issue lists the valid ones, so a 64 KiB MCP call naming 6,000 unknown
 * arguments was answered with 2.2 MB, and a 4 KB search URL with 283 KB. At both doors.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let app: McpTestApp;
let client: Client;

const built = buildBeforeAll(FIXTURE, { BASE_URL: BASE });

beforeAll(async () => {
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
  client = (await connectClient(app.endpoint, "legacy")).client;
}, 600_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await app?.close();
});

type Issue = { path: string; value: unknown; message: string };

function expectBounded(body: { message: string; issues: Issue[] }, unknown: number) {
  expect(body.issues).toHaveLength(MAX_LISTED_ISSUES);
  expect(body.issues.slice(0, -1).every((i) => i.message.startsWith("unknown"))).toBe(true);
  const rest = unknown - (MAX_LISTED_ISSUES - 1);
  expect(body.issues.at(-1)).toEqual({
    path: "(query)",
    value: rest,
    message: `and ${rest} more problems, not listed; fix these first`,
  });
  expect(body.message).toContain(`(query): and ${rest} more problems`);
}

describe("an error body's issues", () => {
  it("are listed up to the bound over HTTP, then counted", async () => {
    const names = Array.from({ length: 300 }, (_, i) => `x${i}=1`).join("&");
    const res = await fetch(`${app.url}/api/reviews/search?${names}`);
    expect(res.status).toBe(400);
    const text = await res.text();
    expectBounded(JSON.parse(text), 300);
    expect(text.length).toBeLessThan(8_000);
    // Under the bound, every issue is listed as before.
    const few = await (await fetch(`${app.url}/api/reviews/search?a=1&b=2&rating=9`)).json();
    expect(few.issues.map((i: Issue) => i.path)).toEqual(["a", "b", "rating"]);
  });

  it("are listed up to the bound in an MCP isError result, then counted", async () => {
    const args = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`a${i}`, 1]));
    const result = await client.callTool({ name: "search_reviews", arguments: args });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text as string;
    expectBounded(JSON.parse(text), 6000);
    expect(text.length).toBeLessThan(8_000);
    const other = await client.callTool({ name: "get_business", arguments: args });
    expect(other.isError).toBe(true);
    expectBounded(JSON.parse((other.content as { text: string }[])[0]?.text as string), 6000);
  });
});

describe("an issue's value", () => {
  const long = "é".repeat(3000);
  const echoed = `${"é".repeat(200)}… (3000 characters)`;

  it("is echoed over HTTP as its first 200 characters, an ellipsis and its length", async () => {
    // Within the URL's bound: 1,500 characters, as sent and as received.
    const sent = "x".repeat(1500);
    const cut = `${"x".repeat(200)}… (1500 characters)`;
    const search = await fetch(`${app.url}/api/reviews/search?query=${sent}&rating=${sent}`);
    expect(search.status).toBe(400);
    const body = await search.json();
    expect(body.issues.map((i: Issue) => [i.path, i.value])).toEqual([
      ["rating", cut],
      ["query", cut],
    ]);
    const since = await (await fetch(`${app.url}/api/reviews/since/${sent}`)).json();
    expect(since.issues[0].value).toBe(cut);
    // A short value is echoed whole, as before.
    const short = await (await fetch(`${app.url}/api/reviews/search?rating=9`)).json();
    expect(short.issues[0].value).toBe("9");
  });

  it("is echoed so in an MCP isError result, in its issue and in the message quoting it", async () => {
    const text = (result: Awaited<ReturnType<Client["callTool"]>>) => {
      expect(result.isError).toBe(true);
      return JSON.parse((result.content as { text: string }[])[0]?.text as string);
    };
    expect(text(await client.callTool({ name: "search_reviews", arguments: { rating: long } })).issues[0].value).toBe(
      echoed,
    );
    // A value that is not a string is echoed as its JSON text, cut the same way.
    const list = Array.from({ length: 500 }, (_, i) => i);
    const json = JSON.stringify(list);
    const cut = `${json.slice(0, 200)}… (${json.length} characters of JSON)`;
    const issue = text(await client.callTool({ name: "get_review", arguments: { id: list } })).issues[0];
    expect(issue.value).toBe(cut);
    expect(issue.message.endsWith(`; got ${JSON.stringify(cut)}`)).toBe(true);
    // An id that names no review is quoted so in the not_found result too.
    const missing = text(await client.callTool({ name: "get_review", arguments: { id: long } }));
    expect(missing).toEqual({
      error: "not_found",
      message: `No review has the id ${JSON.stringify(echoed)}. Use search_reviews to find review ids.`,
      id: echoed,
    });
  });
});
