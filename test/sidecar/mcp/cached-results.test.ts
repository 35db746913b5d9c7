import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * `search_reviews` answers from the build's result store the HTTP route fills too
 * (sidecar/build/result-store.ts, through sidecar/mcp/cached-results.ts).
 * Whatever door fills an entry, and in both protocol eras, the tool's text must be byte for byte
 * the body `GET /api/reviews/search` sends uncompressed with the cache off, its
 * `structuredContent` that JSON, and the HTTP ETag the same as without the cache.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
let dataset: ReviewsDataset;
/** The default result store, shared by the route and the tools. */
let cached: McpTestApp;
/** RESPONSE_CACHE_MB=0: every request takes the uncached path, the reference. */
let uncached: McpTestApp;
const clients: Record<"cached" | "uncached", Record<"legacy" | "modern", Client>> = {
  cached: {} as Record<"legacy" | "modern", Client>,
  uncached: {} as Record<"legacy" | "modern", Client>,
};

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  dataset = JSON.parse(await readFile(path.join(built.distDir, "reviews.json"), "utf8"));
  cached = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
  uncached = await startMcpApp(built.distDir, { env: { BASE_URL: BASE, RESPONSE_CACHE_MB: "0" } });
  for (const [name, app] of [
    ["cached", cached],
    ["uncached", uncached],
  ] as const) {
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectClient(app.endpoint, era);
      expect(client.getProtocolEra()).toBe(era);
      // Caches the output schemas, so every callTool below is also validated by the client.
      await client.listTools();
      clients[name][era] = client;
    }
  }
}, 600_000);

afterAll(async () => {
  for (const side of Object.values(clients))
    for (const c of Object.values(side)) await c.close().catch(() => undefined);
  await cached?.close();
  await uncached?.close();
});

type Params = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The query string HTTP sends for `args` (a repeated parameter as repeated names). */
function queryString(args: Params): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) for (const one of [v ?? []].flat()) qs.append(k, one);
  return qs.toString();
}

async function httpGet(app: McpTestApp, pathAndQuery: string) {
  const res = await fetch(`${app.url}${pathAndQuery}`, { headers: { "accept-encoding": "identity" } });
  return { status: res.status, etag: res.headers.get("etag"), text: await res.text() };
}

const httpSearch = (app: McpTestApp, qs: string) => httpGet(app, `/api/reviews/search?${qs}`);

async function tool(client: Client, args: Record<string, unknown>, name = "search_reviews") {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe("text");
  return { isError: result.isError ?? false, text: content[0]?.text ?? "", structured: result.structuredContent };
}

type Order = "mcp-first" | "http-first";

/**
 * Sends `args` through every door of both apps, in `order` on the cached one (so either door
 * fills the entry the other then reads), and checks each answer against the uncached HTTP body.
 * Returns the HTTP status.
 */
async function compare(p: Params, order: Order): Promise<number> {
  return compareDoors(`/api/reviews/search?${queryString(p)}`, "search_reviews", p, order);
}

/** `compare` for any tool and the HTTP request that must give the same JSON. */
async function compareDoors(
  pathAndQuery: string,
  name: string,
  args: Record<string, unknown>,
  order: Order,
): Promise<number> {
  const reference = await httpGet(uncached, pathAndQuery);
  const answers: Awaited<ReturnType<typeof tool>>[] = [];
  let http: Awaited<ReturnType<typeof httpGet>> | undefined;
  if (order === "http-first") http = await httpGet(cached, pathAndQuery);
  // Twice on the cached app: the second call is always a hit.
  for (const era of ["legacy", "modern", "legacy"] as const) answers.push(await tool(clients.cached[era], args, name));
  http ??= await httpGet(cached, pathAndQuery);
  for (const era of ["legacy", "modern"] as const) answers.push(await tool(clients.uncached[era], args, name));

  expect(http).toEqual(reference);
  for (const answer of answers) {
    expect(answer.isError, pathAndQuery).toBe(reference.status !== 200);
    if (answer.isError) {
      expect(JSON.parse(answer.text)).toEqual(JSON.parse(reference.text));
      expect(answer.structured).toBeUndefined();
    } else {
      expect(answer.text, pathAndQuery).toBe(reference.text);
      expect(answer.structured).toEqual(JSON.parse(reference.text));
    }
  }
  return reference.status;
}

describe("search_reviews and GET /api/reviews/search, cached and uncached, both eras", () => {
  const technicians = () => dataset.business.technicians.flatMap((t) => [t.id, t.name, ...t.aliases]);
  const services = () => dataset.business.services.map((s) => s.id);
  const day = fc
    .date({ min: new Date("2023-12-01T00:00:00Z"), max: new Date("2025-06-30T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  const order = fc.constantFrom<Order>("mcp-first", "http-first");
  /** With `invalid`, each parameter is sometimes a bad value, and a typo or repeat may be added. */
  const params = (invalid: boolean) => {
    const value = (valid: fc.Arbitrary<string>, bad: string[]) =>
      invalid ? fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom(...bad) }) : valid;
    return fc.record(
      {
        rating: value(fc.integer({ min: 1, max: 5 }).map(String), ["0", "6", "3.5", "five", ""]),
        min_rating: value(fc.constantFrom("1", "2", "2.5", "3", "4", "4.5", "5"), ["0.5", "6", "x"]),
        since: value(day, ["2024-02-30", "2024-1-5", "yesterday"]),
        until: value(day, ["2025-13-01", "tomorrow"]),
        query: value(fc.constantFrom("dr", "the", "Waited", "  back  ", "x-ray", "zzz", "", "lake oswego"), [
          "a".repeat(201),
        ]),
        mentions_technician: value(fc.constantFrom(...technicians()), ["Dr. Nobody"]),
        mentions_service: value(fc.constantFrom(...services()), ["yoga"]),
        limit: value(fc.integer({ min: 1, max: 10 }).map(String), ["0", "101", "ten"]),
        offset: value(fc.integer({ min: 0, max: 9 }).map(String), ["-1", "1.5"]),
        // A repeated parameter has no MCP form (an argument is given once): the last test below.
        ...(invalid ? { sort: fc.constant("date") } : {}),
      },
      { requiredKeys: [] },
    );
  };

  it("returns exactly the HTTP body for the same valid parameters, whichever door asked first", async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(params(false), order, async (p, o) => {
        statuses.push(await compare(p, o));
      }),
      { numRuns: 60 },
    );
    // Only since > until makes these invalid, so most runs must have compared real results.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(30);
  });

  it("returns exactly the HTTP 400 body, as an isError result, for invalid parameters", async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(params(true), order, async (p, o) => {
        statuses.push(await compare(p, o));
      }),
      { numRuns: 60 },
    );
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(15);
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
  });

  it("shares one entry between equivalent arguments: numbers, numeric strings, names and ids", async () => {
    const t = dataset.business.technicians[0] as ReviewsDataset["business"]["technicians"][number];
    const forms = [
      { rating: 5, mentions_technician: t.name, limit: 3 },
      { rating: "5", mentions_technician: t.id, limit: "3", offset: 0 },
    ];
    const reference = await httpSearch(uncached, `rating=5&mentions_technician=${encodeURIComponent(t.id)}&limit=3`);
    expect(reference.status).toBe(200);
    for (const args of forms) {
      for (const era of ["legacy", "modern"] as const) {
        const answer = await tool(clients.cached[era], args);
        expect(answer.text).toBe(reference.text);
      }
    }
  });

  it("reports a JSON value HTTP cannot express with the same wording as a bad query string", async () => {
    const result = await tool(clients.cached.legacy, { rating: 7, query: 5, limit: "20" });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.text)).toMatchObject({
      error: "invalid_query",
      issues: [
        { path: "rating", value: 7, message: "expected an integer from 1 to 5" },
        { path: "query", value: 5, message: "expected a search text as a string" },
      ],
    });
  });

  it("reports an array argument as a value of the wrong type, in both eras, not as a repeated parameter", async () => {
    for (const era of ["legacy", "modern"] as const) {
      for (const [args, path, message] of [
        [{ rating: [5] }, "rating", "expected an integer from 1 to 5"],
        [{ rating: [] }, "rating", "expected an integer from 1 to 5"],
        [{ limit: ["2", "3"] }, "limit", "expected an integer from 1 to 100"],
        [{ mentions_service: ["massage-therapy"] }, "mentions_service", "expected a service id as a string"],
      ] as const) {
        const result = await tool(clients.cached[era], args);
        expect(result.isError, `${era} ${JSON.stringify(args)}`).toBe(true);
        const value = (args as Record<string, unknown>)[path];
        expect(JSON.parse(result.text).issues, `${era} ${JSON.stringify(args)}`).toEqual([{ path, value, message }]);
      }
    }
    // Over HTTP the same name twice is a repeated parameter, and says so.
    const repeated = await httpSearch(cached, "rating=4&rating=5");
    expect([repeated.status, JSON.parse(repeated.text).issues]).toEqual([
      400,
      [{ path: "rating", value: ["4", "5"], message: "given 2 times; give it at most once" }],
    ]);
  });
});

describe("get_reviews_since and GET /api/reviews/since/{date}", () => {
  it("returns exactly the HTTP body, or its 400 as an isError result, whichever door asked first", async () => {
    const newest = dataset.reviews[0]?.date as string;
    const date = fc.oneof(
      fc.constantFrom(newest, "2000-01-01", "2030-01-01", "2024-02-30", "2024-1-5", "yesterday"),
      fc
        .date({ min: new Date("2023-01-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(date, fc.constantFrom<Order>("mcp-first", "http-first"), async (d, o) => {
        statuses.push(await compareDoors(`/api/reviews/since/${d}`, "get_reviews_since", { date: d }, o));
      }),
      { numRuns: 40 },
    );
    expect(statuses).toContain(200);
    expect(statuses).toContain(400);
  });
});

describe("one result store per snapshot", () => {
  it("keeps one entry per query for both doors: a compressed search's variant, then the tool's body and value", async () => {
    const qs = "limit=10&offset=3";
    const res = await fetch(`${cached.url}/api/reviews/search?${qs}`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    await res.arrayBuffer();
    const results = cached.store.current.results;
    const key = `search?${qs}`;
    const warmed = results.get(key);
    expect(warmed?.variants?.has("gzip")).toBe(true);
    // A body sent compressed keeps only its variant (sidecar/http/review-routes.ts).
    expect(warmed?.body).toBeUndefined();
    expect(warmed?.value).toBeUndefined();

    const answer = await tool(clients.cached.modern, { limit: 10, offset: 3 });
    const entry = results.get(key);
    expect(entry?.etag).toBe(warmed?.etag);
    expect(answer.text).toBe(entry?.body?.toString("utf8"));
    expect(gunzipSync(entry?.variants?.get("gzip") as Buffer).equals(entry?.body as Buffer)).toBe(true);
    expect(entry?.value?.data).toEqual(answer.structured);
    expect(entry?.variants?.get("gzip")).toBe(warmed?.variants?.get("gzip"));
  });
});
