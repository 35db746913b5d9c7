import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hub } from "../../sidecar/hub/hub.ts";
import { createHubRouter } from "../../sidecar/hub/routes.ts";
import { snapshotTopicReader } from "../../sidecar/hub/topic-source.ts";
import { createLogger } from "../../sidecar/logger.ts";
import { createMcpRouter, type McpRouter } from "../../sidecar/mcp/router.ts";
import { PROJECT_ROOT } from "../../src/build/astro-build.ts";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite } from "../helpers/build-site.ts";
import type { OpenApiDoc } from "../helpers/openapi-oracle.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * Clients generated from the SERVED `/openapi.json` by three generators (openapi-typescript types
 * with openapi-fetch, orval's fetch client, @hey-api/openapi-ts's fetch SDK), offline, into a temp
 * folder, each calling every operation of the document against the real app (MCP and hub
 * mounted) on port 0. Every answer must be a status the document declares for that operation,
 * and the typed search call must type-check against the generated types.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const BASE = "https://reviews.clients.test";

let app: TestApp;
let hub: Hub;
let mcp: McpRouter;
let doc: OpenApiDoc;
/** Inside the project, so the generated code resolves openapi-fetch from its node_modules. */
let out: string;
const temp = tempFolders();

/** What each driver returns: operationId → the HTTP status it got. */
type Statuses = Record<string, number>;

beforeAll(async () => {
  const build = await buildSite(FIXTURE, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  temp.add(build.distDir);
  const data = await temp.make("pr-clients-data-");
  app = await startApp(build.distDir, {
    env: { BASE_URL: BASE, DATA_DIR: data, RATE_LIMIT_PER_MINUTE: "1000000", HUB_RATE_LIMIT_PER_MINUTE: "1000" },
    routers: async ({ config, store, live }) => {
      const logger = createLogger("silent");
      mcp = createMcpRouter({ config, store, builds: live, logger });
      hub = new Hub({ config, logger, readTopic: snapshotTopicReader(() => store.current) });
      await hub.start();
      return {
        mcp,
        hub: createHubRouter(hub, {
          rateLimitPerMinute: 1000,
          trustProxy: false,
          logger,
          publish: async (topics) => void (await hub?.publish(topics)),
        }),
      };
    },
  });
  doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc;
  await mkdir(path.join(PROJECT_ROOT, ".tmp"), { recursive: true });
  out = await mkdtemp(path.join(PROJECT_ROOT, ".tmp", "pr-clients-"));
  temp.add(out);
  await writeFile(path.join(out, "openapi.json"), JSON.stringify(doc));
}, 600_000);

afterAll(async () => {
  await mcp?.close();
  await app?.close();
  await hub?.close();
});

/** The operations of the served document, by id, with the statuses each declares. */
function declared(): Map<string, Set<number>> {
  const ops = new Map<string, Set<number>>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) ops.set(op.operationId, new Set(Object.keys(op.responses).map(Number)));
  }
  return ops;
}

/** Every operation was called, and each got a status the document declares for it. */
function expectDeclared(statuses: Statuses, expected: Record<string, number>): void {
  const ops = declared();
  expect(Object.keys(statuses).sort()).toEqual([...ops.keys()].sort());
  for (const [id, status] of Object.entries(statuses)) {
    expect(ops.get(id)?.has(status), `${id} answered ${status}`).toBe(true);
    if (expected[id] !== undefined) expect(status, id).toBe(expected[id]);
  }
}

/** The answers every client must get: a valid call of each operation, in the same order. */
const EXPECTED = {
  searchReviews: 200,
  getReviewsSince: 200,
  getReviewsDataset: 200,
  getInsights: 200,
  getJsonFeed: 200,
  getAtomFeed: 200,
  getOpenApiDocument: 200,
  getReadiness: 200,
  getLiveness: 200,
  postMcp: 200,
  deleteMcpSession: 200,
  // The session was just deleted: the declared 404, not a stream that would never end.
  getMcpStream: 404,
  // An http callback: the declared 400 with its plain-text reason (no verification is started).
  postWebSubHub: 400,
};

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "generated", version: "1" } },
};
const MCP_HEADERS = { Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-06-18" };
const HUB_FORM = {
  "hub.mode": "subscribe",
  "hub.topic": `${BASE}/feed.xml`,
  "hub.callback": "http://reader.example/cb",
};

/** Type-checks `files` (strict, as the project does); the diagnostics, formatted. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ["node"],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("clients generated from the served document", () => {
  it("openapi-typescript + openapi-fetch: typed calls of every operation, search with rating and limit", async () => {
    const types = astToString(await openapiTS(structuredClone(doc) as unknown as Parameters<typeof openapiTS>[0]));
    await writeFile(path.join(out, "schema.ts"), types);
    const driver = path.join(out, "openapi-fetch-driver.ts");
    await writeFile(
      driver,
      `import createClient from "openapi-fetch";
import type { paths } from "./schema.ts";

export async function callAll(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const s: Record<string, number> = {};
  const search = await client.GET("/api/reviews/search", { params: { query: { rating: 5, limit: 2 } } });
  s.searchReviews = search.response.status;
  const ratings: number[] = (search.data?.reviews ?? []).map((r) => r.rating);
  const since = await client.GET("/api/reviews/since/{date}", { params: { path: { date: "2024-01-01" } } });
  s.getReviewsSince = since.response.status;
  s.getReviewsDataset = (await client.GET("/reviews.json")).response.status;
  s.getInsights = (await client.GET("/insights.json")).response.status;
  s.getJsonFeed = (await client.GET("/api/feed.json")).response.status;
  s.getAtomFeed = (await client.GET("/feed.xml", { parseAs: "text" })).response.status;
  s.getOpenApiDocument = (await client.GET("/openapi.json")).response.status;
  s.getReadiness = (await client.GET("/healthz")).response.status;
  s.getLiveness = (await client.GET("/livez")).response.status;
  const init = await client.POST("/mcp", { body: ${JSON.stringify(INITIALIZE)} as never, headers: ${JSON.stringify(MCP_HEADERS)} as never, parseAs: "text" });
  s.postMcp = init.response.status;
  const session = init.response.headers.get("mcp-session-id") ?? "";
  const headers = { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" };
  s.deleteMcpSession = (await client.DELETE("/mcp", { params: { header: headers } as never, parseAs: "text" })).response.status;
  s.getMcpStream = (await client.GET("/mcp", { params: { header: headers } as never, parseAs: "text" })).response.status;
  const hub = await client.POST("/api/websub/hub", {
    body: ${JSON.stringify(HUB_FORM)},
    bodySerializer: (b) => new URLSearchParams(b as Record<string, string>).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    parseAs: "text",
  });
  s.postWebSubHub = hub.response.status;
  return { statuses: s, ratings, count: search.data?.count };
}
`,
    );
    expect(typeErrors([driver])).toEqual([]);
    const { callAll } = (await import(driver)) as {
      callAll(u: string): Promise<{ statuses: Statuses; ratings: number[]; count?: number }>;
    };
    const got = await callAll(app.url);
    expectDeclared(got.statuses, EXPECTED);
    expect(got.count).toBe(got.ratings.length);
    expect(got.ratings.length).toBeGreaterThan(0);
    expect(got.ratings.length).toBeLessThanOrEqual(2);
    expect(new Set(got.ratings)).toEqual(new Set([5]));
  });

  it("orval (fetch client): every operation, search parameters sent as plain query parameters", async () => {
    const { generate } = await import("orval");
    const target = path.join(out, "orval", "client.ts");
    await generate({
      input: { target: path.join(out, "openapi.json") },
      output: { target, client: "fetch", mode: "single", baseUrl: app.url },
    });
    const c = (await import(target)) as Record<
      string,
      (...args: unknown[]) => Promise<{ status: number; data: unknown; headers: Headers }>
    >;
    const s: Statuses = {};
    const call = async (id: string, ...args: unknown[]) => {
      const fn = c[id];
      if (!fn) throw new Error(`orval generated no ${id}`);
      const r = await fn(...args);
      s[id] = r.status;
      return r;
    };
    const search = await call("searchReviews", { rating: 5, limit: 2 });
    expect((search.data as { reviews: { rating: number }[] }).reviews.every((r) => r.rating === 5)).toBe(true);
    await call("getReviewsSince", "2024-01-01");
    for (const id of ["getReviewsDataset", "getInsights", "getJsonFeed", "getAtomFeed", "getOpenApiDocument"])
      await call(id);
    await call("getReadiness");
    await call("getLiveness");
    const init = await call("postMcp", INITIALIZE, { headers: { ...MCP_HEADERS, "Content-Type": "application/json" } });
    const headers = {
      "Mcp-Session-Id": init.headers.get("mcp-session-id") ?? "",
      "Mcp-Protocol-Version": "2025-06-18",
    };
    await call("deleteMcpSession", { headers });
    await call("getMcpStream", { headers });
    await call("postWebSubHub", HUB_FORM, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(HUB_FORM).toString(),
    });
    expectDeclared(s, EXPECTED);
  });

  it("@hey-api/openapi-ts (fetch client): every operation", async () => {
    const { createClient } = await import("@hey-api/openapi-ts");
    const dir = path.join(out, "hey-api");
    await createClient({
      input: path.join(out, "openapi.json"),
      output: dir,
      plugins: ["@hey-api/client-fetch"],
      logs: { level: "silent" },
    } as Parameters<typeof createClient>[0]);
    const { client } = (await import(path.join(dir, "client.gen.ts"))) as {
      client: { setConfig(c: { baseUrl: string }): void };
    };
    client.setConfig({ baseUrl: app.url });
    type Result = { response: Response; data?: unknown };
    const sdk = (await import(path.join(dir, "sdk.gen.ts"))) as Record<string, (o?: unknown) => Promise<Result>>;
    const s: Statuses = {};
    const call = async (id: string, options?: unknown) => {
      const fn = sdk[id];
      if (!fn) throw new Error(`@hey-api generated no ${id}`);
      const r = await fn(options);
      s[id] = r.response.status;
      return r;
    };
    const search = await call("searchReviews", { query: { rating: 5, limit: 2 } });
    expect((search.data as { reviews: { rating: number }[] }).reviews.every((r) => r.rating === 5)).toBe(true);
    await call("getReviewsSince", { path: { date: "2024-01-01" } });
    for (const id of ["getReviewsDataset", "getInsights", "getJsonFeed", "getOpenApiDocument"]) await call(id);
    await call("getAtomFeed", { parseAs: "text" });
    await call("getReadiness");
    await call("getLiveness");
    const init = await call("postMcp", { body: INITIALIZE, headers: MCP_HEADERS, parseAs: "text" });
    const headers = {
      "Mcp-Session-Id": init.response.headers.get("mcp-session-id") ?? "",
      "Mcp-Protocol-Version": "2025-06-18",
    };
    await call("deleteMcpSession", { headers, parseAs: "text" });
    // The SDK reads GET /mcp as an event stream, opened when the stream is read; the status is
    // taken from its own fetch, and the declared 404 ends the stream with an error.
    const stream = sdk.getMcpStream as unknown as (o: unknown) => Promise<{ stream: AsyncIterable<unknown> }>;
    const opened = await stream({
      headers,
      sseMaxRetryAttempts: 1,
      fetch: async (request: Request) => {
        const res = await fetch(request);
        s.getMcpStream = res.status;
        return res;
      },
    });
    await (async () => {
      for await (const _ of opened.stream) break;
    })().catch(() => undefined);
    await call("postWebSubHub", { body: HUB_FORM, parseAs: "text" });
    expectDeclared(s, EXPECTED);
  });
});
