import { rm } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * A 400 names every wrong parameter, and only wrong ones (docs/api.md: "answers the rest with a 400
 * whose `issues` name every wrong parameter"): a refusal that leaves one out sends the client back
 * twice, and one that blames a right parameter sends it looking for a mistake it did not make.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let dist: string | undefined;
let app: McpTestApp;
let client: Client;

beforeAll(async () => {
  const build = await buildSite(FIXTURE, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startMcpApp(dist, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
  client = (await connectClient(app.endpoint)).client;
}, 600_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

type Issue = { path: string; value: unknown; message: string };

async function issues(target: string): Promise<Issue[]> {
  const res = await fetch(`${app.url}${target}`);
  expect(res.status).toBe(400);
  return ((await res.json()) as { issues: Issue[] }).issues;
}

async function toolIssues(name: string, args: Record<string, unknown>): Promise<Issue[]> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  const [block] = result.content as { type: "text"; text: string }[];
  return (JSON.parse(block?.text ?? "") as { issues: Issue[] }).issues;
}

describe("since/{date} with a date that does not decode", () => {
  it.each([
    ["%zz", "not valid percent-encoding"],
    ["%E9", "not valid UTF-8"],
  ])("since/%s?limit=3 names the query parameter as well as the date", async (date, why) => {
    expect(await issues(`/api/reviews/since/${date}?limit=3&x=1`)).toEqual([
      { path: "date", value: expect.any(String), message: expect.stringContaining(why) },
      { path: "limit", value: "3", message: "unknown parameter; since takes no query parameters" },
      { path: "x", value: "1", message: "unknown parameter; since takes no query parameters" },
    ]);
  });

  it.each([
    ["%zz", "%zz"],
    ["%E9", "\uFFFD"],
  ])("since/%s/ echoes the date without the path's closing slash, as since/2024-02-30/ does", async (date, value) => {
    expect((await issues("/api/reviews/since/2024-02-30/"))[0]).toMatchObject({ value: "2024-02-30" });
    const [issue] = await issues(`/api/reviews/since/${date}/`);
    expect(issue).toMatchObject({ path: "date", value, message: expect.stringContaining(`"${value}" is not valid`) });
  });
});

describe("sentiment beside an aspect that is given but wrong", () => {
  it("is not said to need the aspect when aspect is repeated in the query string", async () => {
    expect(await issues("/api/reviews/search?aspect=billing&aspect=care&sentiment=positive")).toEqual([
      { path: "aspect", value: ["billing", "care"], message: "given 2 times; give it at most once" },
    ]);
  });

  it.each([5, ["billing"]])("is not said to need the aspect when search_reviews gets aspect %j", async (aspect) => {
    expect(await toolIssues("search_reviews", { aspect, sentiment: "positive" })).toEqual([
      { path: "aspect", value: aspect, message: "expected an aspect id as a string" },
    ]);
  });

  it("still needs the aspect when none is given, or only null", async () => {
    const needs = { path: "sentiment", value: "positive", message: expect.stringContaining("needs the aspect") };
    expect(await issues("/api/reviews/search?sentiment=positive")).toEqual([needs]);
    expect(await toolIssues("search_reviews", { aspect: null, sentiment: "positive" })).toEqual([needs]);
  });
});

describe("get_reviews_since with an unknown argument", () => {
  it.each(["2024-02-30", "yesterday", "2024-1-5"])(
    "names the date %s as well, in the order since/{date}?limit=3 does",
    async (date) => {
      const http = await issues(`/api/reviews/since/${date}?limit=3`);
      const tool = await toolIssues("get_reviews_since", { date, limit: 3 });
      expect(tool.map((i) => i.path)).toEqual(["date", "limit"]);
      expect(tool[0]).toEqual(http[0]);
      expect(tool[1]).toMatchObject({ path: "limit", value: 3, message: expect.stringContaining("unknown argument") });
    },
  );

  it("names only the unknown argument beside a right date", async () => {
    expect((await toolIssues("get_reviews_since", { date: "2024-02-29", limit: 3 })).map((i) => i.path)).toEqual([
      "limit",
    ]);
  });
});
