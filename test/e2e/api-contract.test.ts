import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../sidecar/mcp/session-store.ts";
import { buildBeforeAll } from "../helpers/build-site.ts";
import { initializeRequest, JSON_RPC_HEADERS, type McpTestApp, openSession, startMcpApp } from "../helpers/mcp-app.ts";
import {
  DocumentOracle,
  type OpenApiDoc,
  type Operation,
  type Parameter,
  queryArbitrary,
  type Schema,
  valueArbitrary,
} from "../helpers/openapi-oracle.ts";
import { rawRequest } from "../helpers/raw-http.ts";

/**
 * The served `/openapi.json` against the running server, as a contract tester sees it: requests
 * generated from the document (hundreds per operation, valid and invalid), each classified by the
 * document alone (ajv, JSON Schema 2020-12 with formats), must get the status the document
 * predicts, and every body must validate against the schema declared for that status, with every
 * header declared for it present.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const BASE = "https://reviews.contract.test";
const RUNS = 300;
const MAX_URL = 4096;

let app: McpTestApp;
let oracle: DocumentOracle;
let doc: OpenApiDoc;

const built = buildBeforeAll(FIXTURE, { BASE_URL: BASE });

beforeAll(async () => {
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
  doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc;
  oracle = new DocumentOracle(doc);
});

afterAll(async () => {
  await app?.close();
});

const op = (p: string): Operation => doc.paths[p]?.get as Operation;
/**
 * The query an operation takes, as one JSON Schema object: each `in: query` parameter a property,
 * plus the cross-parameter rules the operation states in `x-query-constraints` (no other
 * parameter; `sentiment` only with `aspect`).
 */
const querySchema = (o: Operation): Schema => {
  const params = (o.parameters ?? []).filter((p) => p.in === "query");
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
    ...((o as Operation & { "x-query-constraints"?: Schema })["x-query-constraints"] ?? {}),
  };
};

interface Exchange {
  status: number;
  headers: Headers;
  body: unknown;
  type: string;
}

async function send(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<Exchange> {
  const res = await fetch(url, { method, headers, body });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    type,
    body: type.includes("json") && text ? JSON.parse(text) : text,
  };
}

/** The response matches what the document declares for its status: body schema and headers. */
function conforms(o: Operation, ex: Exchange, context: string): void {
  const declared = o.responses[String(ex.status)];
  expect(declared, `${context}: status ${ex.status} is not declared`).toBeDefined();
  for (const [name, h] of Object.entries(declared?.headers ?? {})) {
    const value = ex.headers.get(name);
    if (h.required) expect(value, `${context}: declared header ${name}`).not.toBeNull();
    // A header's value is text; a number schema describes the number it spells.
    const typed = h.schema.type === "integer" || h.schema.type === "number" ? Number(value) : value;
    if (value !== null) expect(oracle.errors(h.schema, typed), `${context}: header ${name}: ${value}`).toEqual([]);
  }
  const content = declared?.content;
  if (!content) {
    expect(ex.body, `${context}: ${ex.status} declares no body`).toBe("");
    return;
  }
  const media = Object.keys(content).find((t) => ex.type.startsWith(t));
  expect(media, `${context}: Content-Type ${ex.type} not declared`).toBeDefined();
  expect(oracle.errors(content[media as string]?.schema ?? {}, ex.body), context).toEqual([]);
}

/** Generated requests for one operation, checked against the document. */
async function exercise(
  o: Operation,
  request: fc.Arbitrary<{ url: string; valid: boolean }>,
): Promise<{ valid: number; invalid: number }> {
  const seen = { valid: 0, invalid: 0 };
  await fc.assert(
    fc.asyncProperty(request, async ({ url, valid }) => {
      const ex = await send(url);
      const expected = url.length - app.url.length > MAX_URL ? 414 : valid ? 200 : 400;
      expect(ex.status, `${url}: ${JSON.stringify(ex.body).slice(0, 300)}`).toBe(expected);
      conforms(o, ex, url);
      seen[valid ? "valid" : "invalid"]++;
    }),
    { numRuns: RUNS },
  );
  return seen;
}

describe("the served /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("has an example on every parameter and every response body, each valid against its schema", () => {
    let examples = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(item)) {
        for (const param of o.parameters ?? []) {
          expect(param.example, `${method} ${p} ${param.name}`).toBeDefined();
          expect(oracle.errors(param.schema, param.example), `${p} ${param.name}`).toEqual([]);
          examples++;
        }
        for (const [status, r] of Object.entries(o.responses)) {
          for (const [type, media] of Object.entries(r.content ?? {})) {
            expect(media.example, `${method} ${p} ${status} ${type}`).toBeDefined();
            expect(oracle.errors(media.schema, media.example), `${p} ${status} ${type}`).toEqual([]);
            examples++;
          }
        }
      }
    }
    expect(examples).toBeGreaterThan(40);
  });
});

describe("the hub's request body in the document", () => {
  it("refuses a publish ping without a topic URL, as the hub does, and takes one with hub.url or hub.topic", () => {
    const post = doc.paths["/api/websub/hub"]?.post as Operation & {
      requestBody: { content: Record<string, { schema: Schema }> };
    };
    const schema = post.requestBody.content["application/x-www-form-urlencoded"]?.schema ?? {};
    expect(oracle.errors(schema, { "hub.mode": "publish" })).not.toEqual([]);
    expect(oracle.errors(schema, { "hub.mode": "publish", "hub.url": `${BASE}/feed.xml` })).toEqual([]);
    expect(oracle.errors(schema, { "hub.mode": "publish", "hub.topic": [`${BASE}/feed.xml`] })).toEqual([]);
  });
});

describe("the 400s the document declares", () => {
  it("each require a non-empty `issues`, as every 400 the server sends has one", () => {
    let declared = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, o] of Object.entries(item)) {
        const json = o.responses["400"]?.content?.["application/json"];
        // /mcp's 400 is a JSON-RPC error, not the REST error shape.
        if (!json || p === "/mcp") continue;
        declared++;
        const context = `${method} ${p}`;
        expect(oracle.errors(json.schema, { error: "invalid_query", message: "x" }), context).not.toEqual([]);
        expect(oracle.errors(json.schema, { error: "invalid_query", message: "x", issues: [] }), context).not.toEqual(
          [],
        );
        const issue = { path: "rating", value: "9", message: "expected an integer from 1 to 5" };
        expect(oracle.errors(json.schema, { error: "invalid_query", message: "x", issues: [issue] }), context).toEqual(
          [],
        );
      }
    }
    // Search, since and the hub.
    expect(declared).toBe(3);
  });
});

describe("search, since and the files, against the document", () => {
  it("gives the 412 example as the server's own answer, but for the ETag it names", async () => {
    for (const p of ["/reviews.json", "/api/reviews/since/{date}", "/api/reviews/search"]) {
      const example = op(p).responses["412"]?.content?.["application/json"]?.example as { message: string };
      const ex = await send(`${app.url}${p.replace("{date}", "2026-01-01")}`, { "if-match": '"stale"' });
      expect(ex.status, p).toBe(412);
      const sent = (ex.body as { message: string }).message;
      const named = (s: string) => s.match(/"[^"]*"/g) ?? [];
      expect(named(sent), p).toHaveLength(1);
      expect(ex.body, p).toEqual({ ...example, message: example.message.replace(/"[^"]*"/, named(sent)[0] ?? "") });
    }
  });

  it("gives each operation's 400 example as the server's own answer to the request it describes", async () => {
    for (const p of ["/api/reviews/search", "/api/reviews/since/{date}"]) {
      const example = op(p).responses["400"]?.content?.["application/json"]?.example as {
        issues: { path: string; value: string }[];
      };
      // The request the example's issues name: the path parameter, then each query parameter.
      const date = example.issues.find((i) => i.path === "date")?.value ?? "";
      const query = new URLSearchParams(example.issues.filter((i) => i.path !== "date").map((i) => [i.path, i.value]));
      const ex = await send(`${app.url}${p.replace("{date}", encodeURIComponent(date))}?${query}`);
      expect(ex.status, p).toBe(400);
      expect(ex.body, p).toEqual(example);
    }
  });

  it("names in the ETag's description the suffix of every compressed variant the server sends", async () => {
    for (const [p, url] of [
      ["/reviews.json", "/reviews.json"],
      ["/api/reviews/search", "/api/reviews/search?limit=100"],
    ] as const) {
      const described = op(p).responses["200"]?.headers?.ETag?.description ?? "";
      for (const coding of ["br", "zstd", "gzip"]) {
        const res = await fetch(`${app.url}${url}`, { headers: { "accept-encoding": coding } });
        await res.body?.cancel();
        expect(res.headers.get("content-encoding"), `${url} ${coding}`).toBe(coding);
        const suffix = /-([a-z]+)"$/.exec(res.headers.get("etag") ?? "")?.[1];
        expect(described, `${url} ${coding}`).toContain(`\`-${suffix}\``);
      }
    }
  });

  it("GET /api/reviews/search: the server accepts exactly the query objects the document allows", async () => {
    const o = op("/api/reviews/search");
    const schema = querySchema(o);
    const request = queryArbitrary(schema).map((qs) => ({
      url: `${app.url}/api/reviews/search${qs ? `?${qs}` : ""}`,
      valid: oracle.errors(schema, oracle.queryObject(qs, schema)).length === 0,
    }));
    const seen = await exercise(o, request);
    // Both sides of the contract were exercised, not just refusals.
    expect(seen.valid).toBeGreaterThan(RUNS / 10);
    expect(seen.invalid).toBeGreaterThan(RUNS / 10);
  });

  it("GET /api/reviews/since/{date}: a real calendar date and no query parameters, as the document says", async () => {
    const o = op("/api/reviews/since/{date}");
    const dateParam = o.parameters?.find((p) => p.in === "path") as Parameter;
    const query = querySchema(o);
    // "." and ".." are path segments no URL can carry as a value; "" is another path.
    const date = valueArbitrary(dateParam.schema).filter((d) => d !== "" && d !== "." && d !== "..");
    const request = fc
      .tuple(date, fc.oneof({ weight: 4, arbitrary: fc.constant("") }, queryArbitrary(query)))
      .map(([d, qs]) => ({
        url: `${app.url}/api/reviews/since/${encodeURIComponent(d)}${qs ? `?${qs}` : ""}`,
        valid:
          oracle.errors(dateParam.schema, d).length === 0 &&
          oracle.errors(query, oracle.queryObject(qs, query)).length === 0,
      }));
    const seen = await exercise(o, request);
    expect(seen.valid).toBeGreaterThan(RUNS / 10);
    expect(seen.invalid).toBeGreaterThan(RUNS / 10);
  });

  it.each(["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/openapi.json"])(
    "GET %s: 200 with the declared body and headers, 304 exactly when If-None-Match matches",
    async (p) => {
      const o = op(p);
      const first = await send(`${app.url}${p}`);
      conforms(o, first, p);
      const etag = first.headers.get("etag") as string;
      const inm = fc.oneof(
        fc.constantFrom(etag, `W/${etag}`, "*", `"other", ${etag}`),
        fc.string({ maxLength: 8 }).map((s) => `"${s.replaceAll('"', "")}"`),
      );
      await fc.assert(
        fc.asyncProperty(fc.option(inm), fc.string({ maxLength: 8 }), async (tag, junk) => {
          const headers: Record<string, string> = tag === null ? {} : { "If-None-Match": tag };
          const ex = await send(`${app.url}${p}?${new URLSearchParams({ junk })}`, headers);
          const matches =
            tag !== null && (tag === "*" || tag.split(",").some((t) => t.trim().replace(/^W\//, "") === etag));
          expect(ex.status).toBe(matches ? 304 : 200);
          conforms(o, ex, `${p} If-None-Match: ${tag}`);
        }),
        { numRuns: 100 },
      );
    },
  );

  it.each(["/healthz", "/livez"])("GET %s answers with its declared body", async (p) => {
    conforms(op(p), await send(`${app.url}${p}`), p);
  });

  // RFC 9110 §13.1.2: `If-None-Match: *` is false whenever there is a representation, so a GET
  // with it is a 304, on the probes too; a client generated from the document must expect it.
  // Sent raw: fetch adds `Cache-Control: no-cache` to a conditional request, which Express reads.
  it.each(["/healthz", "/livez"])("GET %s answers If-None-Match: * with a declared 304", async (p) => {
    const host = new URL(app.url).host;
    const raw = await rawRequest(
      app.url,
      `GET ${p} HTTP/1.1\r\nHost: ${host}\r\nIf-None-Match: *\r\nConnection: close\r\n\r\n`,
    );
    expect(raw.status).toBe(304);
    const headers = new Headers(
      raw.head
        .split("\r\n")
        .slice(1)
        .map((l) => l.split(/:\s*/, 2) as [string, string]),
    );
    conforms(op(p), { status: raw.status, headers, body: raw.body, type: "" }, `${p} If-None-Match: *`);
  });

  it.each([
    ["/api/reviews/search", "/api/reviews/search?min_rating=4&limit=2"],
    ["/api/reviews/since/{date}", "/api/reviews/since/2025-01-01"],
  ])("GET %s: 304 with the declared headers when the ETag is sent back", async (p, url) => {
    const first = await send(`${app.url}${url}`);
    conforms(op(p), first, url);
    const again = await send(`${app.url}${url}`, { "If-None-Match": first.headers.get("etag") as string });
    expect(again.status).toBe(304);
    conforms(op(p), again, `${url} revalidated`);
  });
});

describe("/mcp against the document", () => {
  const mcp = (method: string) => doc.paths["/mcp"]?.[method] as Operation;

  it("POST initialize, GET and DELETE answer as declared, the session id in the declared header", async () => {
    const init = await send(`${app.url}/mcp`, JSON_RPC_HEADERS, "POST", JSON.stringify(initializeRequest()));
    conforms(mcp("post"), init, "initialize");
    const session = init.headers.get("mcp-session-id") as string;
    expect(session).toBeTruthy();
    // Every example of the id is one as the server issues it: <payload>.<signature>, the same claims in the payload.
    const shape = (id: string) => {
      const [payload = "", signature = "", ...rest] = id.split(".");
      const text = Buffer.from(payload, "base64url").toString("utf8");
      const claims = text.startsWith("{") ? Object.keys(JSON.parse(text)).sort() : text;
      return { parts: rest.length + 2, claims, signature: signature.length };
    };
    const examples = [
      mcp("post").responses["200"]?.headers?.["Mcp-Session-Id"]?.example,
      ...["post", "get", "delete"].map((m) => mcp(m).parameters?.find((p) => p.name === "Mcp-Session-Id")?.example),
    ];
    for (const example of examples) expect(shape(String(example))).toEqual(shape(session));
    const headers = { "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18" };
    // Without a session, each method's refusal is the declared JSON-RPC error.
    for (const method of ["get", "delete"]) {
      conforms(mcp(method), await send(`${app.url}/mcp`, {}, method.toUpperCase()), `${method} without a session`);
    }
    conforms(mcp("delete"), await send(`${app.url}/mcp`, headers, "DELETE"), "delete");
    conforms(mcp("get"), await send(`${app.url}/mcp`, headers, "GET"), "get after delete");
  });
});

/** A session store that cannot record an end, as PostgreSQL does when it is unreachable. */
class UnreachableEnds extends MemorySessionStore {
  override end(): Promise<void> {
    return Promise.reject(new Error("connect ECONNREFUSED"));
  }
}

describe("/mcp past its limits, against the document", () => {
  const mcp = (method: string) => doc.paths["/mcp"]?.[method] as Operation;

  it("declares the 413, the stream cap's 503 on GET and subscriptions/listen, and DELETE's 503", async () => {
    const limited = await startMcpApp(built.distDir, {
      env: { BASE_URL: BASE, MCP_MAX_STREAMS: "1" },
      sessions: new UnreachableEnds({ idleMs: 60_000 }),
    });
    const streams: Response[] = [];
    try {
      const padded = JSON.stringify({ ...initializeRequest(), padding: "x".repeat(70_000) });
      const tooBig = await send(limited.endpoint, JSON_RPC_HEADERS, "POST", padded);
      expect(tooBig.status).toBe(413);
      conforms(mcp("post"), tooBig, "POST over 64 KiB");

      const session = { "Mcp-Session-Id": await openSession(limited.endpoint), "Mcp-Protocol-Version": "2025-06-18" };
      const sse = { ...session, Accept: "text/event-stream" };
      streams.push(await fetch(limited.endpoint, { headers: sse }));
      const capped = await send(limited.endpoint, sse, "GET");
      expect([streams[0]?.status, capped.status]).toEqual([200, 503]);
      expect(capped.headers.get("retry-after")).toBe("30");
      conforms(mcp("get"), capped, "GET past MCP_MAX_STREAMS");

      const listenHeaders = {
        ...JSON_RPC_HEADERS,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      };
      const listen = (id: number) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "subscriptions/listen",
          params: {
            notifications: { resourceSubscriptions: [`${BASE}/reviews.json`] },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "contract", version: "0" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        });
      streams.push(await fetch(limited.endpoint, { method: "POST", headers: listenHeaders, body: listen(1) }));
      const refused = await send(limited.endpoint, listenHeaders, "POST", listen(2));
      expect([streams[1]?.status, refused.status]).toEqual([200, 503]);
      expect(refused.headers.get("retry-after")).toBe("30");
      conforms(mcp("post"), refused, "subscriptions/listen past MCP_MAX_STREAMS");

      const unended = await send(limited.endpoint, session, "DELETE");
      expect(unended.status).toBe(503);
      expect(unended.headers.get("retry-after")).toBe("30");
      conforms(mcp("delete"), unended, "DELETE with the session store unreachable");
    } finally {
      for (const s of streams) await s.body?.cancel();
      await limited.close();
    }
  });
});

describe("methods", () => {
  const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  const concrete = (p: string) => p.replace("{date}", "2026-01-01");

  it("answers 405 with Allow for every method a described path does not take, 204 to OPTIONS", async () => {
    // The hub is not mounted here; test/sidecar/hub/routes.test.ts covers its 405.
    const paths = Object.keys(doc.paths).filter((p) => p !== "/api/websub/hub");
    expect(paths).toContain("/mcp");
    for (const p of paths) {
      const declared = Object.keys(doc.paths[p] ?? {}).map((m) => m.toUpperCase());
      // HEAD goes with GET, except on /mcp, where a GET opens an event stream.
      const head = declared.includes("GET") && p !== "/mcp";
      const allowed = new Set([...declared, ...(head ? ["HEAD"] : []), "OPTIONS"]);
      for (const method of METHODS.filter((m) => !declared.includes(m))) {
        const res = await fetch(`${app.url}${concrete(p)}`, { method });
        const allow = new Set((res.headers.get("allow") ?? "").split(/,\s*/));
        if (method === "HEAD" && head) {
          expect(res.status, `HEAD ${p}`).not.toBe(405);
        } else {
          expect(res.status, `${method} ${p}`).toBe(method === "OPTIONS" ? 204 : 405);
          expect(allow, `${method} ${p}`).toEqual(allowed);
        }
        await res.body?.cancel();
      }
    }
  });

  it("answers a method it does not know with 501, as the document's description says", async () => {
    expect((doc as OpenApiDoc & { info: { description: string } }).info.description).toMatch(/\b501\b/);
    for (const p of Object.keys(doc.paths)) {
      const res = await fetch(`${app.url}${concrete(p)}`, { method: "FOO" });
      expect(res.status, p).toBe(501);
      await res.body?.cancel();
    }
  });

  it("answers HEAD like GET, without a body", async () => {
    for (const p of ["/reviews.json", "/api/reviews/search?limit=1", "/api/reviews/since/2026-01-01", "/healthz"]) {
      const get = await fetch(`${app.url}${p}`);
      const head = await fetch(`${app.url}${p}`, { method: "HEAD" });
      expect(head.status, p).toBe(get.status);
      expect(head.headers.get("etag"), p).toBe(get.headers.get("etag"));
      expect(await head.text()).toBe("");
      await get.body?.cancel();
    }
  });
});
