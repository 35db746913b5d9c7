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

/** What each era's SDK client sends besides the message, and every single change to it that is tried. */
const LEGACY_STANDARD = {
  session: "valid",
  version: "2025-11-25",
  accept: JSON_RPC_HEADERS.accept,
  contentType: "application/json",
  mcpMethod: undefined,
  meta: undefined,
} as const;

const LEGACY_CHANGES = {
  session: ["missing", "forged", "revoked"],
  version: [undefined, "2025-06-18", "2024-11-05", "1999-01-01", " 2025-06-18", "2026-07-28", "2027-01-01"],
  accept: ["application/json", "text/event-stream", "*/*"],
  contentType: ["application/json; charset=utf-8"],
  mcpMethod: ["tools/call", "tools/list"],
  meta: [{ progressToken: 1 }, envelope],
} as const;

const MODERN_STANDARD = {
  version: MODERN,
  mcpMethod: "tools/call",
  mcpName: "same",
  param: undefined,
  accept: JSON_RPC_HEADERS.accept,
  meta: "standard",
  session: undefined,
} as const;

const MODERN_CHANGES = {
  version: [undefined, " 2026-07-28", "2025-11-25"],
  mcpMethod: [undefined, "tools/list", "tools/call "],
  mcpName: ["missing", "other", "base64", "padded"],
  param: ["x-anything"],
  accept: ["application/json", "text/event-stream"],
  meta: ["no-client-info", "progress", "old-version"],
  session: ["valid"],
} as const;

type Variant<S, C> = { -readonly [K in keyof S]: S[K] | (K extends keyof C ? C[K][number & keyof C[K]] : never) };
type LegacyVariant = Variant<typeof LEGACY_STANDARD, typeof LEGACY_CHANGES>;
type ModernVariant = Variant<typeof MODERN_STANDARD, typeof MODERN_CHANGES>;

/** Every variant that differs from the standard in exactly one thing. */
function singleChanges<S extends object>(standard: S, changes: Record<string, readonly unknown[]>): S[] {
  return Object.entries(changes).flatMap(([key, values]) => values.map((value) => ({ ...standard, [key]: value })));
}

/**
 * An era's headers and envelope: what its SDK client sends, that with one thing changed (the case
 * that tells whether the fast path checks that one thing), or each thing drawn at random.
 */
function variants<S extends object>(standard: S, changes: Record<string, readonly unknown[]>): fc.Arbitrary<S> {
  const random = fc.record(
    Object.fromEntries(
      Object.entries(standard).map(([key, value]) => [key, fc.constantFrom(value, value, ...(changes[key] ?? []))]),
    ),
  ) as unknown as fc.Arbitrary<S>;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(standard) },
    { weight: 3, arbitrary: fc.constantFrom(...singleChanges(standard, changes)) },
    { weight: 1, arbitrary: random },
  );
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
      variants<LegacyVariant>(LEGACY_STANDARD, LEGACY_CHANGES).map((v) => ({ era: "legacy" as const, ...v })),
      variants<ModernVariant>(MODERN_STANDARD, MODERN_CHANGES).map((v) => ({ era: "modern" as const, ...v })),
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

/**
 * Sends `r` to both apps and expects the same answers. The same call is first sent as its era's
 * client sends it, so the cache holds the answer whenever the arguments are valid: a variant the
 * fast path must refuse then meets a hit. Then `r` goes to the fast app twice (the first may fill
 * the cache, the second is then a hit) and to the reference app.
 */
async function compare(r: Request): Promise<void> {
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
  expect(first, JSON.stringify(r)).toEqual(expected);
  expect(second, JSON.stringify(r)).toEqual(expected);
}

describe("the tools/call fast path", () => {
  it("answers each single change to a client's request exactly as the SDK does", async () => {
    const before = fast.mcp.fastAnswers;
    const base = { search: { min_rating: 4, limit: 2 }, since: { date: "2024-06-01" }, id: 7 };
    const eras = [
      ...singleChanges(LEGACY_STANDARD, LEGACY_CHANGES).map((v) => ({ era: "legacy" as const, ...v })),
      ...singleChanges(MODERN_STANDARD, MODERN_CHANGES).map((v) => ({ era: "modern" as const, ...v })),
    ];
    let cases = 0;
    for (const tool of ["search_reviews", "get_reviews_since"] as const) {
      for (const era of eras) {
        await compare({ ...base, tool, era, body: "plain" });
        cases++;
      }
      for (const era of [
        { era: "legacy" as const, ...LEGACY_STANDARD },
        { era: "modern" as const, ...MODERN_STANDARD },
      ]) {
        for (const body of ["plain", "extra-key", "params-key", "no-arguments"] as const) {
          await compare({ ...base, tool, era, body });
          cases++;
        }
      }
    }
    // Answered in front of the SDK: the warm-ups and both sends of the unchanged requests, and
    // the changes the SDK does not look at (a protocol version it supports, Mcp-Method on 2025,
    // a session id on 2026, a charset).
    expect(fast.mcp.fastAnswers - before).toBeGreaterThan(cases);
  });

  it("answers random requests exactly as the SDK does: status, headers and body bytes", async () => {
    const before = fast.mcp.fastAnswers;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(requests(), async (r) => {
        runs++;
        await compare(r);
      }),
      { numRuns: 300 },
    );
    // Valid arguments sent unchanged are hits on their second send at least (about half the runs):
    // a share well above zero shows the property compared the fast path, not only the SDK.
    expect(fast.mcp.fastAnswers - before).toBeGreaterThan(runs / 4);
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
        // Arguments no other test sends, so the first round finds nothing cached.
        { name: "search_reviews", arguments: { min_rating: 1, limit: 6 } },
        { name: "search_reviews", arguments: { query: "back", limit: "7" } },
        { name: "get_reviews_since", arguments: { date: "2023-01-15" } },
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
