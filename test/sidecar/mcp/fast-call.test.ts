import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../../src/content/records.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient, JSON_RPC_HEADERS, type McpTestApp, openSession, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * The fast path in front of the SDK (sidecar/mcp/fast-call.ts) must answer exactly what the SDK
 * answers. Two apps on the same build and session secret: one with the fast path, one without
 * (every request through the SDK). Each random request, valid or not, in either era and with
 * random header variants, goes to the fast app twice (the first may fill the cache, the second
 * is then a hit) and to the reference app; status, headers and body bytes must agree. The fast
 * path must also actually have answered a good share of them, or the property proves nothing.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const SECRET = "fast-call-test-secret-0123456789abcdef";
let dist: string;
let dataset: ReviewsDataset;
let fast: McpTestApp;
let reference: McpTestApp;
/** Valid in both apps (same secret); `revoked` was ended with DELETE in both. */
let session: string;
let revoked: string;

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  dataset = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8"));
  const env = { BASE_URL: BASE, MCP_SESSION_SECRET: SECRET };
  fast = await startMcpApp(dist, { env });
  reference = await startMcpApp(dist, { env, fastPath: false });
  session = await openSession(fast.endpoint, "2025-11-25");
  revoked = await openSession(fast.endpoint, "2025-06-18");
  for (const app of [fast, reference]) {
    const res = await fetch(app.endpoint, { method: "DELETE", headers: { "mcp-session-id": revoked } });
    expect(res.status).toBe(200);
  }
}, 600_000);

afterAll(async () => {
  await fast?.close();
  await reference?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

/** Headers that differ between two processes or two moments, not between two code paths. */
const VOLATILE = new Set(["date", "ratelimit", "ratelimit-policy", "keep-alive", "connection"]);

async function send(app: McpTestApp, headers: Record<string, string>, body: string) {
  const res = await fetch(app.endpoint, { method: "POST", headers, body });
  const kept = [...res.headers].filter(([name]) => !VOLATILE.has(name));
  return { status: res.status, headers: Object.fromEntries(kept), body: await res.text() };
}

const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "fast-call-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const day = fc
  .date({ min: new Date("2023-12-01T00:00:00Z"), max: new Date("2025-06-30T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Search arguments, as numbers or strings; with `invalid`, sometimes a bad value or an unknown key. */
const searchRecord = (invalid: boolean) => {
  const value = <T, U>(valid: fc.Arbitrary<T>, bad: U[]) =>
    invalid ? fc.oneof(valid, fc.constantFrom(...bad)) : valid;
  return fc.record(
    {
      rating: value(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom("4", "5")), ["6", "five"]),
      min_rating: value(fc.constantFrom(2, 4, "4.5"), [0.5]),
      since: value(day, ["2024-02-30"]),
      query: value(fc.constantFrom("dr", "the", "  back  ", "zzz"), [5]),
      mentions_technician: value(fc.constantFrom(...dataset.business.technicians.flatMap((t) => [t.id, t.name])), [
        "Dr. Nobody",
      ]),
      limit: value(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant("3")), ["0", "101"]),
      offset: value(fc.constantFrom(0, 1, "2"), [-1]),
      ...(invalid ? { sort: fc.constant("date") } : {}),
    },
    { requiredKeys: [] },
  );
};

const searchArgs = () =>
  fc.oneof({ weight: 2, arbitrary: searchRecord(false) }, { weight: 1, arbitrary: searchRecord(true) });

const sinceArgs = () =>
  fc.oneof(
    { weight: 4, arbitrary: day.map((date) => ({ date })) },
    fc.constantFrom({ date: "2024-13-01" }, { date: 20240101 }, {}, { date: "2024-06-01", extra: 1 }),
  );

const id = fc.oneof(
  fc.integer({ min: -1_000_000, max: 2 ** 40 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(0, -0, 2 ** 53 + 2, 1.5, "", 'id with "quotes" and \\ and \u2028', null),
);

/** Header and body variants of one era; `undefined` leaves a header out. */
const LEGACY_STANDARD = {
  session: "valid",
  version: "2025-11-25",
  accept: JSON_RPC_HEADERS.accept,
  contentType: "application/json",
  mcpMethod: undefined,
  meta: undefined,
} as const;

const legacyVariants = fc.record({
  session: fc.constantFrom("valid", "valid", "valid", "missing", "forged", "revoked"),
  version: fc.constantFrom(undefined, "2025-11-25", "2025-06-18", "2024-11-05", "1999-01-01", " 2025-06-18"),
  accept: fc.constantFrom(JSON_RPC_HEADERS.accept, JSON_RPC_HEADERS.accept, "application/json", "*/*"),
  contentType: fc.constantFrom("application/json", "application/json; charset=utf-8"),
  mcpMethod: fc.constantFrom(undefined, undefined, "tools/call", "tools/list"),
  meta: fc.constantFrom(undefined, undefined, undefined, { progressToken: 1 }, envelope),
});

const MODERN_STANDARD = {
  version: MODERN,
  mcpMethod: "tools/call",
  mcpName: "same",
  param: undefined,
  accept: JSON_RPC_HEADERS.accept,
  meta: "standard",
  session: undefined,
} as const;

const modernVariants = fc.record({
  version: fc.constantFrom(MODERN, MODERN, MODERN, undefined, " 2026-07-28", "2025-11-25"),
  mcpMethod: fc.constantFrom("tools/call", "tools/call", "tools/call", undefined, "tools/list", "tools/call "),
  mcpName: fc.constantFrom("same", "same", "same", "missing", "other", "base64", "padded"),
  param: fc.constantFrom(undefined, undefined, undefined, "x-anything"),
  accept: fc.constantFrom(JSON_RPC_HEADERS.accept, JSON_RPC_HEADERS.accept, "application/json", "text/event-stream"),
  meta: fc.constantFrom("standard", "standard", "standard", "no-client-info", "progress", "old-version"),
  session: fc.constantFrom(undefined, undefined, "valid"),
});

/**
 * An era's headers and envelope: what its SDK client sends, that with one thing changed (the case
 * that tells whether the fast path checks that one thing), or everything drawn at random.
 */
function variants<T extends object>(standard: T, random: fc.Arbitrary<T>): fc.Arbitrary<T> {
  const oneChanged = fc
    .tuple(random, fc.constantFrom(...(Object.keys(standard) as (keyof T)[])))
    .map(([r, key]) => ({ ...standard, [key]: r[key] }));
  return fc.oneof(fc.constant(standard), oneChanged, random);
}

/** Changes to the message itself, each sending it to the SDK. */
const bodyVariant = fc.oneof(
  { weight: 6, arbitrary: fc.constant("plain") },
  fc.constantFrom("extra-key", "params-key", "no-arguments"),
);

/** Built when the test runs: the technicians come from the built dataset. */
const requests = () =>
  fc.record({
    tool: fc.constantFrom("search_reviews", "search_reviews", "get_reviews_since", "get_review"),
    search: searchArgs(),
    since: sinceArgs(),
    id,
    era: fc.oneof(
      variants(LEGACY_STANDARD, legacyVariants).map((v) => ({ era: "legacy" as const, ...v })),
      variants(MODERN_STANDARD, modernVariants).map((v) => ({ era: "modern" as const, ...v })),
    ),
    body: bodyVariant,
  });

type Request = ReturnType<typeof requests> extends fc.Arbitrary<infer T> ? T : never;

/** The headers and body text of `r`. */
function encode(r: Request): { headers: Record<string, string>; body: string } {
  const args =
    r.tool === "search_reviews" ? r.search : r.tool === "get_reviews_since" ? r.since : { id: "no-such-review" };
  const params: Record<string, unknown> = { name: r.tool, arguments: args };
  const headers: Record<string, string> = { "content-type": "application/json", accept: r.era.accept };
  const v = r.era;
  if (v.era === "legacy") {
    headers["content-type"] = v.contentType;
    const sid = { valid: session, missing: undefined, forged: `${session.slice(0, -4)}AAAA`, revoked }[v.session];
    if (sid) headers["mcp-session-id"] = sid;
    if (v.version !== undefined) headers["mcp-protocol-version"] = v.version;
    if (v.mcpMethod !== undefined) headers["mcp-method"] = v.mcpMethod;
    if (v.meta) params._meta = v.meta;
  } else {
    if (v.version !== undefined) headers["mcp-protocol-version"] = v.version;
    if (v.mcpMethod !== undefined) headers["mcp-method"] = v.mcpMethod;
    const names: Record<typeof v.mcpName, string | undefined> = {
      same: r.tool,
      missing: undefined,
      other: "get_business",
      base64: `=?base64?${Buffer.from(r.tool).toString("base64")}?=`,
      padded: ` ${r.tool}`,
    };
    const name = names[v.mcpName];
    if (name !== undefined) headers["mcp-name"] = name;
    if (v.param) headers["mcp-param-query"] = v.param;
    if (v.session) headers["mcp-session-id"] = session;
    const meta: Record<string, unknown> = { ...envelope };
    if (v.meta === "no-client-info") delete meta["io.modelcontextprotocol/clientInfo"];
    if (v.meta === "progress") meta.progressToken = "p1";
    if (v.meta === "old-version") meta["io.modelcontextprotocol/protocolVersion"] = "2025-11-25";
    params._meta = meta;
  }
  if (r.body === "params-key") params.task = { ttl: 1000 };
  if (r.body === "no-arguments") delete params.arguments;
  const message: Record<string, unknown> = { jsonrpc: "2.0", id: r.id, method: "tools/call", params };
  if (r.id === null) delete message.id;
  if (r.body === "extra-key") message.extra = true;
  return { headers, body: JSON.stringify(message) };
}

describe("the tools/call fast path", () => {
  it("answers every request exactly as the SDK does: status, headers and body bytes", async () => {
    const before = fast.mcp.fastAnswers;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(requests(), async (r) => {
        runs++;
        // The same call as its era's client sends it first, so the cache holds its answer whenever
        // the arguments are valid: a variant the fast path should refuse then meets a hit.
        const standard =
          r.era.era === "legacy"
            ? { era: "legacy" as const, ...LEGACY_STANDARD }
            : { era: "modern" as const, ...MODERN_STANDARD };
        const warm = encode({ ...r, era: standard, body: "plain", id: 1 });
        await send(fast, warm.headers, warm.body);
        const { headers, body } = encode(r);
        const first = await send(fast, headers, body);
        const second = await send(fast, headers, body);
        const expected = await send(reference, headers, body);
        expect(first).toEqual(expected);
        expect(second).toEqual(expected);
      }),
      { numRuns: 400 },
    );
    console.log("FAST", fast.mcp.fastAnswers - before, runs);
    // Roughly a fifth of the requests are eligible, and a hit on their second send.
    expect(fast.mcp.fastAnswers - before).toBeGreaterThan(runs / 10);
  });

  it("answers the real SDK client in both eras, with results equal to the SDK path's", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const clients: Client[] = [];
      for (const app of [fast, reference]) {
        const { client } = await connectClient(app.endpoint, era);
        await client.listTools();
        clients.push(client);
      }
      const before = fast.mcp.fastAnswers;
      const calls = [
        { name: "search_reviews", arguments: { min_rating: 4, limit: 3 } },
        { name: "search_reviews", arguments: { query: "back", limit: "2" } },
        { name: "get_reviews_since", arguments: { date: "2024-06-01" } },
      ];
      for (let round = 0; round < 2; round++) {
        for (const call of calls) {
          const [got, want] = await Promise.all(clients.map((c) => c.callTool(call) as Promise<CallToolResult>));
          expect(got).toEqual(want);
          expect(got?.isError ?? false).toBe(false);
        }
      }
      // 2025 first: its first round fills the cache through the SDK and its second is answered in
      // front of it; the 2026 client then finds every answer cached.
      expect(fast.mcp.fastAnswers - before).toBe(era === "legacy" ? calls.length : 2 * calls.length);
      for (const c of clients) await c.close();
    }
  });

  it("keeps the precomputed answer in the cache entry, counted against RESPONSE_CACHE_MB", async () => {
    const args = { rating: 5, limit: 4 };
    const { client } = await connectClient(fast.endpoint, "legacy");
    const first = (await client.callTool({ name: "search_reviews", arguments: args })) as CallToolResult;
    const body = (first.content[0] as { text: string }).text;
    const bytes = fast.responseCache.bytes;
    const answered = fast.mcp.fastAnswers;
    await client.callTool({ name: "search_reviews", arguments: args });
    expect(fast.mcp.fastAnswers).toBe(answered + 1);
    // The text block (escaped) and structuredContent: a little over twice the body.
    expect(fast.responseCache.bytes - bytes).toBeGreaterThan(2 * Buffer.byteLength(body));
    await client.callTool({ name: "search_reviews", arguments: args });
    expect(fast.responseCache.bytes - bytes).toBeLessThan(3 * Buffer.byteLength(body));
    await client.close();
  });
});
