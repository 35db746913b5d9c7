import { readFile } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult, Client, ResourceUpdatedNotification } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import {
  connectClient,
  initializeRequest,
  type McpTestApp,
  openSession,
  postRpc,
  publishEditedReview,
  startMcpApp,
} from "../../helpers/mcp-app.ts";
import { until } from "../../helpers/until.ts";

/**
 * One endpoint, two protocol eras: 2025-era clients initialize and get a session, 2026-07-28
 * requests are served with no session at all, and both get the same tools and the same results.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const MODERN = "2026-07-28";
let app: McpTestApp;
let dataset: ReviewsDataset;
const clients: Client[] = [];

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
}, 600_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await app?.close();
});

async function client(era: "legacy" | "modern"): Promise<Client> {
  const { client: c } = await connectClient(app.endpoint, era);
  clients.push(c);
  return c;
}

/** A raw 2026-07-28 request: the `_meta` envelope and the Mcp-Method / Mcp-Name headers. */
function modern(method: string, params: Record<string, unknown> = {}, name?: string, headers = {}) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return postRpc(
    app.endpoint,
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } },
    { "mcp-protocol-version": MODERN, "mcp-method": method, ...(name ? { "mcp-name": name } : {}), ...headers },
  );
}

describe("the 2026-07-28 revision, stateless", () => {
  it("answers tools/call of search_reviews with no prior request, with exactly the HTTP search body", async () => {
    const args = { min_rating: 4, limit: 3 };
    const res = await modern("tools/call", { name: "search_reviews", arguments: args }, "search_reviews");
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const http = await (await fetch(`${app.url}/api/reviews/search?min_rating=4&limit=3`)).json();
    expect(res.body.result.structuredContent).toEqual(http);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(http);
  });

  it("refuses a Mcp-Method or Mcp-Name header that disagrees with the body with 400 and -32020", async () => {
    const method = await modern("tools/list", {}, undefined, { "mcp-method": "tools/call" });
    expect([method.status, method.body.error.code]).toEqual([400, -32020]);
    const name = await modern("tools/call", { name: "get_business", arguments: {} }, "search_reviews");
    expect([name.status, name.body.error.code]).toEqual([400, -32020]);
  });

  it("answers a POST whose Accept lists application/json only: the 406 is the 2025 era's rule", async () => {
    // 2026-07-28 asks the client to list both types but gives the server no 406 to answer with.
    const res = await modern("tools/list", {}, undefined, { accept: "application/json" });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/json"]);
    expect(res.body.result.tools.length).toBeGreaterThan(0);
  });

  it("answers 404 for initialize, which this revision removed", async () => {
    const { params } = initializeRequest(MODERN);
    const res = await modern("initialize", params);
    expect([res.status, res.body.error.code]).toEqual([404, -32601]);
  });

  it("describes itself on server/discover and marks lists public for the datasets' max-age", async () => {
    const discover = await modern("server/discover");
    expect(discover.body.result.supportedVersions).toContain(MODERN);
    expect(discover.body.result.capabilities.resources).toMatchObject({ subscribe: true });
    for (const method of ["tools/list", "resources/list", "resources/templates/list", "server/discover"]) {
      const res = await modern(method);
      expect(res.body.result, method).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
    }
  });

  it("reports an unknown review resource as -32602 with its URI in data", async () => {
    const res = await modern("resources/read", { uri: "reviews://no-such-review" }, "reviews://no-such-review");
    expect(res.body.error).toMatchObject({ code: -32602, data: { uri: "reviews://no-such-review" } });
  });
});

describe("the 2025 era", () => {
  it("still initializes on 2025-06-18 with a session id", async () => {
    const res = await postRpc(app.endpoint, initializeRequest("2025-06-18"));
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    expect(res.body.result.protocolVersion).toBe("2025-06-18");
  });

  it("refuses JSON-RPC batches: not allowed from 2025-06-18, and not accepted on 2025-03-26", async () => {
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    const batch = [call(1), call(2)];
    for (const version of ["2025-06-18", "2025-03-26"]) {
      const id = await openSession(app.endpoint, version);
      const res = await postRpc(app.endpoint, batch, { "mcp-session-id": id, "mcp-protocol-version": version });
      expect([res.status, res.body.error.code], version).toEqual([400, -32600]);
      expect(res.body.error.message).toMatch(/send each of the 2 messages in its own POST/);
      if (version === "2025-06-18") expect(res.body.error.message).toMatch(/2025-06-18 does not allow/);
    }
    const single = await postRpc(app.endpoint, [call(3)], { "mcp-protocol-version": MODERN });
    expect(single.body.error.message).toMatch(/; send the message on its own, not in an array$/);
    const modernBatch = await postRpc(app.endpoint, batch, { "mcp-protocol-version": MODERN });
    expect([modernBatch.status, modernBatch.body.error.code]).toEqual([400, -32600]);
  });
});

describe("SDK clients of both eras", () => {
  it("get the same tools and the same results", async () => {
    const [legacy, modernClient] = [await client("legacy"), await client("modern")];
    expect(legacy.getProtocolEra()).toBe("legacy");
    expect(modernClient.getProtocolEra()).toBe("modern");
    const [a, b] = [await legacy.listTools(), await modernClient.listTools()];
    expect(b.tools).toEqual(a.tools);
    for (const args of [{ limit: 2 }, { rating: 5, query: "back" }, { rating: "six" }]) {
      const [x, y] = await Promise.all(
        [legacy, modernClient].map((c) => c.callTool({ name: "search_reviews", arguments: args })),
      );
      expect((y as CallToolResult).content, JSON.stringify(args)).toEqual((x as CallToolResult).content);
    }
  });

  it("read one review as reviews://{id} and complete ids from a prefix", async () => {
    const review = dataset.reviews[2] as ReviewsDataset["reviews"][number];
    for (const c of [await client("legacy"), await client("modern")]) {
      const { contents } = await c.readResource({ uri: `reviews://${review.id}` });
      expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(review);
      const { completion } = await c.complete({
        ref: { type: "ref/resource", uri: "reviews://{id}" },
        argument: { name: "id", value: review.id.slice(0, 7) },
      });
      expect(completion.values).toContain(review.id);
      for (const v of completion.values) expect(v.startsWith(review.id.slice(0, 7))).toBe(true);
    }
  });
});

describe("change notices", () => {
  it("tell subscribers of both eras which resources a publish changed", async () => {
    const target = dataset.reviews[0] as ReviewsDataset["reviews"][number];
    const uri = `reviews://${target.id}`;
    const seen = { legacy: [] as string[], modern: [] as string[] };
    // Every 2025 client opens its session's GET stream after initialize; earlier tests' are open too.
    const streamsBefore = app.mcp.openStreams;
    const legacy = await client("legacy");
    const modernClient = await client("modern");
    const arrived = (era: "legacy" | "modern", c: Client) =>
      new Promise<void>((resolve) => {
        c.setNotificationHandler("notifications/resources/updated", (n: ResourceUpdatedNotification) => {
          seen[era].push(n.params.uri);
          if (n.params.uri === uri) resolve();
        });
      });
    const got = [arrived("legacy", legacy), arrived("modern", modernClient)];
    await legacy.subscribeResource({ uri });
    const subscription = await modernClient.listen({ resourceSubscriptions: [uri] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([uri]);
    await until(() => app.mcp.openStreams === streamsBefore + 1, 5_000);

    // A publish: a new build in which one review's text changed.
    await publishEditedReview(app, target.id);

    await Promise.all(got);
    // Only what was subscribed to, and only what changed.
    expect(seen.legacy).toEqual([uri]);
    expect(seen.modern).toEqual([uri]);
    await subscription.close();
  });

  it("keep no build alive for an open change-notice stream: the build a stream opened under retires at the next publish", async () => {
    const opened = app.store.current;
    const retired: unknown[] = [];
    const stopWatching = app.store.onRetire((snapshot) => retired.push(snapshot));
    // The 2025 client opens its session's GET stream after initialize; the 2026 one listens.
    const streamsBefore = app.mcp.openStreams;
    await client("legacy");
    await until(() => app.mcp.openStreams === streamsBefore + 1, 5_000);
    const subscription = await (await client("modern")).listen({ resourceSubscriptions: [`${BASE}/reviews.json`] });
    await publishEditedReview(app, (dataset.reviews[1] as ReviewsDataset["reviews"][number]).id);
    stopWatching();
    expect(app.store.current).not.toBe(opened);
    // Streams may stay open for days; the retired build's folder must not wait for them.
    expect(retired).toContain(opened);
    await subscription.close();
  });
});
