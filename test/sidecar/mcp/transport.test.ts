import { rm } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_SESSION } from "../../../sidecar/mcp/change-notices.ts";
import { MemorySessionStore } from "../../../sidecar/mcp/session-store.ts";
import { STREAM_LIMIT_CODE, STREAM_RETRY_AFTER_S } from "../../../sidecar/mcp/stream-limit.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";
import {
  connectClient,
  initializeRequest,
  JSON_RPC_HEADERS,
  type McpTestApp,
  openSession,
  postRpc,
  startMcpApp,
  waitFor,
} from "../../helpers/mcp-app.ts";

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const TTL = 60_000;
let dist: string;
let app: McpTestApp;
const started: McpTestApp[] = [];

async function start(env: Record<string, string> = {}, clock?: ManualClock, sessions?: MemorySessionStore) {
  const a = await startMcpApp(dist, { env: { BASE_URL: BASE, ...env }, clock, sessions });
  started.push(a);
  return a;
}

beforeAll(async () => {
  const build = await buildSite(CONTENT, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await start();
});

afterAll(async () => {
  for (const a of started) await a.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

const session = (id: string, version = "2025-06-18") => ({ "mcp-session-id": id, "mcp-protocol-version": version });
const listTools = (id: number | string = 2) => ({ jsonrpc: "2.0", id, method: "tools/list" });

/** GET or DELETE on /mcp with optional headers. */
const send = (endpoint: string, method: string, headers: Record<string, string> = {}) =>
  fetch(endpoint, { method, headers: { accept: "text/event-stream", ...headers } });

/** Resolves once the response body ends, whether closed cleanly or cut. */
async function streamEnds(res: Response): Promise<true> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true }));
    if (chunk.done) return true;
  }
}

/** What `/mcp` lets a browser script read: the session id, and when and how much it may retry. */
const MCP_EXPOSED = ["mcp-session-id", "ratelimit", "ratelimit-policy", "retry-after"];
const exposed = (headers: Headers) =>
  (headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/).filter(Boolean).sort();

/** node:http, because fetch silently drops a `host` header. */
function withHost(
  endpoint: string,
  host: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(initializeRequest());
    const req = request(
      endpoint,
      {
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream", ...extra },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("streamable HTTP sessions", () => {
  it("initializes on 2025-06-18 and returns the session id in Mcp-Session-Id", async () => {
    const init = await postRpc(app.endpoint, initializeRequest("2025-06-18"));
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toMatch(/^application\/json/);
    expect(init.headers.get("mcp-session-id")).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(init.body.result.protocolVersion).toBe("2025-06-18");
    const id = init.headers.get("mcp-session-id") as string;
    const ack = await postRpc(app.endpoint, { jsonrpc: "2.0", method: "notifications/initialized" }, session(id));
    expect(ack.status).toBe(202);
    // The id records the version the SDK answered with, also when the client asked for another.
    const other = await postRpc(app.endpoint, initializeRequest("2099-01-01"));
    const answered = other.body.result.protocolVersion;
    expect(answered).not.toBe("2099-01-01");
    const payload = (other.headers.get("mcp-session-id") as string).split(".")[0] as string;
    expect(JSON.parse(Buffer.from(payload, "base64url").toString()).pv).toBe(answered);
  });

  it("answers a request without a session id with 400", async () => {
    const post = await postRpc(app.endpoint, listTools());
    expect([post.status, post.body.error.code]).toEqual([400, -32000]);
    expect(post.body.error.message).toMatch(/Mcp-Session-Id header is required/);
    for (const method of ["GET", "DELETE"]) expect((await send(app.endpoint, method)).status).toBe(400);
  });

  it("answers an unknown, forged or foreign session id with 404 so the client re-initializes", async () => {
    const real = await openSession(app.endpoint);
    const [payload, signature] = real.split(".") as [string, string];
    const other = await start({ MCP_SESSION_SECRET: "another-secret-of-at-least-32-characters" });
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 1e9 })).toString("base64url");
    const ids = [
      "00000000-0000-4000-8000-000000000000",
      `${longer}.${signature}`,
      `${payload}.${"A".repeat(43)}`,
      await openSession(other.endpoint),
    ];
    for (const id of ids) {
      const post = await postRpc(app.endpoint, listTools(), session(id));
      expect([post.status, post.body.error.code], id).toEqual([404, -32001]);
      for (const method of ["GET", "DELETE"]) expect((await send(app.endpoint, method, session(id))).status).toBe(404);
    }
  });

  it("accepts an id issued by another instance that shares MCP_SESSION_SECRET", async () => {
    const env = { MCP_SESSION_SECRET: "a-secret-shared-by-every-instance-000" };
    const [a, b] = [await start(env), await start(env)];
    const id = await openSession(a.endpoint);
    const res = await postRpc(b.endpoint, listTools(), session(id));
    expect(res.status).toBe(200);
    expect(res.body.result.tools.map((t: { name: string }) => t.name)).toContain("get_log_checkpoint");
    expect(res.body.result.tools).toHaveLength(6);
  });

  it("ends a session on DELETE: its SSE stream closes and the id is then unknown", async () => {
    const id = await openSession(app.endpoint);
    const stream = await send(app.endpoint, "GET", session(id));
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const ended = streamEnds(stream);
    expect((await send(app.endpoint, "DELETE", session(id))).status).toBe(200);
    await expect(ended).resolves.toBe(true);
    expect((await postRpc(app.endpoint, listTools(), session(id))).status).toBe(404);
    // An SDK client resuming the deleted session (no initialize, since it has an id) is told 404.
    const resumed = new Client({ name: "resume", version: "0" });
    await resumed.connect(new StreamableHTTPClientTransport(new URL(app.endpoint), { sessionId: id }));
    await expect(resumed.callTool({ name: "get_business", arguments: {} })).rejects.toMatchObject({
      data: { status: 404 },
    });
    await resumed.close();
  });

  it("lets the SDK client end its own session", async () => {
    const { client, transport } = await connectClient(app.endpoint);
    const id = transport.sessionId as string;
    expect((await postRpc(app.endpoint, listTools(), session(id))).status).toBe(200);
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect((await postRpc(app.endpoint, listTools(), session(id))).status).toBe(404);
    await client.close();
  });

  it("answers every JSON request with one complete JSON body, in both eras (the SDK's Node adapter)", async () => {
    const id = await openSession(app.endpoint);
    const modernMeta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const call = (extra: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { limit: 3 }, ...extra },
    });
    const exchanges = [
      { headers: session(id), body: call() },
      { headers: session(id), body: listTools() },
      {
        headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_reviews" },
        body: call({ _meta: modernMeta }),
      },
    ];
    for (const { headers, body } of exchanges) {
      const raw = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const req = request(
          app.endpoint,
          {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (d: Buffer) => chunks.push(d));
            res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(body));
      });
      expect(raw.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(raw.bytes.toString()).id).toBe(body.id);
    }
  });

  it("rejects an unsupported Mcp-Protocol-Version header and other HTTP methods", async () => {
    const id = await openSession(app.endpoint);
    expect((await postRpc(app.endpoint, listTools(), session(id, "1999-01-01"))).status).toBe(400);
    const put = await send(app.endpoint, "PUT", session(id));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
  });
});

describe("JSON-RPC errors", () => {
  it("gives -32700 for a body that is not JSON", async () => {
    const id = await openSession(app.endpoint);
    for (const headers of [{}, session(id)]) {
      const res = await postRpc(app.endpoint, '{"jsonrpc":"2.0","id":1,', headers);
      expect([res.status, res.body.error.code, res.body.id]).toEqual([400, -32700, null]);
    }
  });

  it("gives -32700 for a body that is not UTF-8 (RFC 8259 §8.1), in both eras, rather than reading U+FFFD", async () => {
    const id = await openSession(app.endpoint);
    const search = { name: "search_reviews", arguments: { query: "café" } };
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "latin-1", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const modern = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_reviews" };
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [search, session(id)],
      [{ ...search, _meta }, modern],
    ];
    for (const [params, headers] of cases) {
      // Encoded as ISO-8859-1, as a client that ignores the charset does: the é is the lone byte 0xE9.
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params }), "latin1");
      expect(body.includes(0xe9)).toBe(true);
      const res = await fetch(app.endpoint, { method: "POST", headers: { ...JSON_RPC_HEADERS, ...headers }, body });
      const answer = await res.json();
      expect([res.status, answer.jsonrpc, answer.id, answer.error?.code]).toEqual([400, "2.0", null, -32700]);
      expect(answer.error.message).toContain("UTF-8");
    }
  });

  it("reads a body sent with Content-Encoding x-gzip as gzip (RFC 9110 §8.4.1.3), not as an unknown coding", async () => {
    const { gzipSync } = await import("node:zlib");
    for (const coding of ["x-gzip", "X-GZip"]) {
      const res = await fetch(app.endpoint, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, "content-encoding": coding },
        body: gzipSync(JSON.stringify(initializeRequest())),
      });
      expect(res.status, coding).toBe(200);
      expect(res.headers.get("mcp-session-id"), coding).toBeTruthy();
      expect((await res.json()).result.protocolVersion).toBe("2025-06-18");
    }
  });

  it("gives -32700 for a body that does not decode as its Content-Encoding says", async () => {
    const id = await openSession(app.endpoint);
    for (const coding of ["gzip", "deflate", "br"]) {
      for (const headers of [{}, session(id)]) {
        const res = await postRpc(app.endpoint, JSON.stringify(listTools()), {
          ...headers,
          "content-encoding": coding,
        });
        expect([res.status, res.body.jsonrpc, res.body.id, res.body.error.code], coding).toEqual([
          400,
          "2.0",
          null,
          -32700,
        ]);
        expect(res.body.error.message).toContain(coding);
      }
    }
  });

  it("gives -32600 for JSON that is not a JSON-RPC message, echoing a usable id", async () => {
    const id = await openSession(app.endpoint);
    const cases: [unknown, string | number | null][] = [
      [[], null],
      [5, null],
      [{ id: 7, method: "ping" }, 7],
      [{ jsonrpc: "1.0", id: "x", method: "ping" }, "x"],
      [{ jsonrpc: "2.0", id: 3, method: 12 }, 3],
    ];
    for (const [body, echoed] of cases) {
      const res = await postRpc(app.endpoint, JSON.stringify(body), session(id));
      expect([res.status, res.body.error.code, res.body.id], JSON.stringify(body)).toEqual([400, -32600, echoed]);
    }
  });

  it("gives -32601 for an unknown method and -32602 for invalid params", async () => {
    const id = await openSession(app.endpoint);
    const call = async (method: string, params?: unknown) =>
      (await postRpc(app.endpoint, { jsonrpc: "2.0", id: 9, method, params }, session(id))).body;
    expect((await call("reviews/delete")).error).toMatchObject({ code: -32601 });
    expect((await call("tools/call", {})).error).toMatchObject({ code: -32602, message: /tools\/call: params\.name/ });
    expect((await call("tools/call", { name: "search_reviews", arguments: "rating=5" })).error.code).toBe(-32602);
    expect((await call("resources/read", { uri: "reviews://nothing" })).error.code).toBe(-32602);
    const init = await postRpc(app.endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect([init.status, init.body.error.code]).toEqual([400, -32602]);
    expect(init.body.error.message).toMatch(/clientInfo/);
  });

  it("answers a body nested deeper than 64 levels with 400 and -32700, before anything walks it", async () => {
    const id = await openSession(app.endpoint);
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    for (const headers of [{}, session(id)]) {
      const deep = await postRpc(app.endpoint, nested(30_000), headers);
      expect([deep.status, deep.body.error.code, deep.body.id]).toEqual([400, -32700, null]);
      expect(deep.body.error.message).toMatch(/nests deeper than 64 levels/);
      const args = JSON.parse(`{"a":${nested(65)}}`);
      const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_business", arguments: args } };
      expect((await postRpc(app.endpoint, call, headers)).body.error.code).toBe(-32700);
    }
    // Within the bound the message reaches the server and is answered on its merits.
    const shallow = JSON.parse(`{"a":${nested(60)}}`);
    const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_business", arguments: shallow } };
    const reply = await postRpc(app.endpoint, call, session(id));
    expect([reply.status, reply.body.result.isError]).toEqual([200, true]);
  });

  it("refuses a message with a lone surrogate or a noncharacter anywhere with 400 and -32600, echoing none", async () => {
    const id = await openSession(app.endpoint);
    // JSON escapes, written by hand (a lone surrogate cannot travel as UTF-8), and one raw character.
    const bodies = [
      '{"jsonrpc":"\\uffff","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x\\uffff","arguments":{}}}',
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_review","arguments":{"id":"x\u{10FFFF}"}}}`,
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"reviews://a","\\ufdd0":1}}',
    ];
    for (const body of bodies) {
      const res = await fetch(app.endpoint, { method: "POST", headers: { ...JSON_RPC_HEADERS, ...session(id) }, body });
      const text = await res.text();
      expect(res.status, body).toBe(400);
      expect(/[\uFDD0-\uFDEF\uFFFE\uFFFF]|\u{10FFFF}|\\ud8/iu.test(text), text).toBe(false);
      expect(JSON.parse(text)).toMatchObject({ error: { code: -32600 }, id: null });
      expect(JSON.parse(text).error.message).toMatch(/^Invalid Request: \$\S* .*I-JSON/);
    }
    // The SDK decodes an Mcp-Name header's =?base64?…?= form and quotes it in its errors.
    const named = await fetch(app.endpoint, {
      method: "POST",
      headers: {
        ...JSON_RPC_HEADERS,
        ...session(id),
        "mcp-method": "tools/call",
        "mcp-name": `=?base64?${Buffer.from("\uFFFE").toString("base64")}?=`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_business" } }),
    });
    const reply = await named.text();
    expect([named.status, reply.includes("\uFFFE")]).toEqual([400, false]);
    expect(JSON.parse(reply).error.message).toMatch(/^Invalid Request: mcp-name .*I-JSON/);
  });

  it("refuses a number beyond a double's range with 400 and -32600 naming it, in both eras, rather than echoing null", async () => {
    const id = await openSession(app.endpoint);
    const _meta = JSON.stringify({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "big", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    const modern = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_reviews" };
    // JSON.parse reads 1e400 as Infinity, which JSON cannot write: an issue's `value` came back null, as if not sent.
    const cases: [string, Record<string, string>][] = [
      ['{"min_rating":1e400}', session(id)],
      ['{"offset":-1e400}', session(id)],
      [`{"min_rating":1e400},"_meta":${_meta}`, modern],
    ];
    for (const [args, headers] of cases) {
      const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_reviews","arguments":${args}}}`;
      const res = await fetch(app.endpoint, { method: "POST", headers: { ...JSON_RPC_HEADERS, ...headers }, body });
      const answer = await res.json();
      expect([res.status, answer.error?.code], args).toEqual([400, -32600]);
      expect(answer.error.message).toMatch(/^Invalid Request: \$\.params\.arguments\.(min_rating|offset) .*I-JSON/);
    }
    // A number a double holds, however odd its spelling, is read as usual.
    const fine = await postRpc(
      app.endpoint,
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":1E1}}}',
      session(id),
    );
    expect([fine.status, fine.body.result.structuredContent.limit]).toEqual([200, 10]);
  });

  it("refuses a name given twice in one object with 400 and -32600 naming it, in both eras, rather than keeping the last", async () => {
    const id = await openSession(app.endpoint);
    const _meta = JSON.stringify({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "twice", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    const modern = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_reviews" };
    // JSON.parse keeps the last: this searched for five stars and said nothing of the 1.
    const cases: [string, Record<string, string>][] = [
      ['{"min_rating":1,"min_rating":5}', session(id)],
      [`{"min_rating":1,"\\u006din_rating":5},"_meta":${_meta}`, modern],
    ];
    for (const [args, headers] of cases) {
      const body = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search_reviews","arguments":${args}}}`;
      const res = await fetch(app.endpoint, { method: "POST", headers: { ...JSON_RPC_HEADERS, ...headers }, body });
      const answer = await res.json();
      expect([res.status, answer.error?.code, answer.id], args).toEqual([400, -32600, null]);
      expect(answer.error.message).toMatch(
        /^Invalid Request: \$\.params\.arguments\.min_rating is given twice .*I-JSON/,
      );
    }
    // The same name in two objects is no duplicate.
    const fine = await postRpc(
      app.endpoint,
      '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":1},"_meta":{"limit":2}}}',
      session(id),
    );
    expect([fine.status, fine.body.result.structuredContent.limit]).toEqual([200, 1]);
  });

  it("answers a missing Accept type with 406 and too many requests with 429, both JSON-RPC errors", async () => {
    const id = await openSession(app.endpoint);
    const json = await postRpc(app.endpoint, listTools(), { ...session(id), accept: "application/json" });
    expect([json.status, json.body.jsonrpc, json.body.error.code]).toEqual([406, "2.0", -32000]);
    const stream = await send(app.endpoint, "GET", { ...session(id), accept: "application/json" });
    expect(stream.status).toBe(406);
    const limited = await start({ RATE_LIMIT_PER_MINUTE: "2" });
    const origin = { origin: "https://any.example" };
    for (let i = 0; i < 2; i++) await postRpc(limited.endpoint, initializeRequest(), origin);
    const refused = await postRpc(limited.endpoint, initializeRequest(), origin);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(refused.body.error.message).toMatch(/Too many requests/);
    // MCP's CORS, not the public policy: a browser client can read the refusal and when to retry.
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(exposed(refused.headers)).toEqual(MCP_EXPOSED);
  });

  it("reads Accept's media types in any letter case, as RFC 9110 §8.3.1 has them (no 406 for Application/JSON)", async () => {
    const accept = "Application/JSON, Text/Event-Stream;q=0.5";
    const init = await postRpc(app.endpoint, initializeRequest(), { accept });
    expect(init.status).toBe(200);
    const id = init.headers.get("mcp-session-id") as string;
    expect(id).toBeTruthy();
    const listed = await postRpc(app.endpoint, listTools(), { ...session(id), accept });
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.length).toBeGreaterThan(0);
    const stream = await send(app.endpoint, "GET", { ...session(id), accept: "TEXT/EVENT-STREAM" });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await stream.body?.cancel();
  });

  it("answers a URL over 4 KB with 414 as a JSON-RPC error with id null, as every /mcp refusal", async () => {
    const long = `${app.endpoint}?${"x".repeat(5000)}`;
    const post = await postRpc(long, initializeRequest(), { origin: "https://any.example" });
    expect([post.status, post.headers.get("content-type")]).toEqual([414, "application/json; charset=utf-8"]);
    expect(post.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "URI Too Long: The URL is 5005 characters; the limit is 4096." },
    });
    expect(post.headers.get("access-control-allow-origin")).toBe("*");
    const get = await send(long, "GET");
    expect([get.status, (await get.json()).error.code]).toEqual([414, -32000]);
  });

  it("bounds the body size and requires a JSON content type", async () => {
    const big = JSON.stringify({ ...initializeRequest(), padding: "x".repeat(70_000) });
    const tooBig = await postRpc(app.endpoint, big);
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, -32000]);
    const text = await postRpc(app.endpoint, JSON.stringify(initializeRequest()), { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    const coded = await postRpc(app.endpoint, JSON.stringify(initializeRequest()), { "content-encoding": "compress" });
    expect([coded.status, coded.body.error.code]).toEqual([415, -32000]);
    expect(coded.headers.get("accept-encoding")).toMatch(/^gzip, deflate, br(, zstd)?$/);
  });

  it("refuses a body in UTF-16 with 415 as any charset but UTF-8 (RFC 8259 §8.1), whatever its characters", async () => {
    const id = await openSession(app.endpoint);
    const call = (query: string) => ({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { query } },
    });
    for (const charset of ["utf-16", "utf-16le"]) {
      // ASCII text and text with an é, which in UTF-16 is not valid UTF-8 either: one answer for both.
      for (const query of ["back", "café"]) {
        const res = await fetch(app.endpoint, {
          method: "POST",
          headers: { ...JSON_RPC_HEADERS, ...session(id), "content-type": `application/json; charset=${charset}` },
          body: Buffer.from(JSON.stringify(call(query)), "utf16le"),
        });
        const answer = await res.json();
        expect([res.status, answer.error?.code], `${charset} ${query}`).toEqual([415, -32000]);
        expect(answer.error.message).toContain(charset.toUpperCase());
      }
    }
  });
});

describe("security", () => {
  it("refuses a Host other than the BASE_URL host or loopback with 403", async () => {
    const port = new URL(app.url).port;
    expect((await withHost(app.endpoint, "evil.com")).status).toBe(403);
    expect(JSON.parse((await withHost(app.endpoint, `evil.com:${port}`)).body).error.message).toMatch(/evil\.com/);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "reviews.test"]) {
      expect((await withHost(app.endpoint, host)).status, host).toBe(200);
    }
  });

  it("lets a page of an allowed origin read the Host check's 403, and a refused origin read nothing", async () => {
    // The CORS spec hides an answer without Access-Control-Allow-Origin from the page; a
    // DNS-rebinding page is same-origin and reads it anyway, so the headers give it nothing.
    const any = await withHost(app.endpoint, "evil.com", { origin: "https://any.example" });
    expect([any.status, any.headers["access-control-allow-origin"]]).toEqual([403, "*"]);
    expect(JSON.parse(any.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    const listed = await start({ MCP_ALLOWED_ORIGINS: "https://app.example" });
    const allowed = await withHost(listed.endpoint, "evil.com", { origin: "https://app.example" });
    expect([allowed.status, allowed.headers["access-control-allow-origin"]]).toEqual([403, "https://app.example"]);
    expect(String(allowed.headers["access-control-expose-headers"])).toMatch(/Retry-After/);
    const refused = await withHost(listed.endpoint, "evil.com", { origin: "https://evil.example" });
    expect([refused.status, refused.headers["access-control-allow-origin"]]).toEqual([403, undefined]);
    expect(JSON.parse(refused.body).error.message).toMatch(/Origin "https:\/\/evil\.example" is not allowed/);
  });

  it("ignores Authorization", async () => {
    const auth = { authorization: "Bearer not-a-real-token" };
    const init = await postRpc(app.endpoint, initializeRequest(), auth);
    expect(init.status).toBe(200);
    const id = init.headers.get("mcp-session-id") as string;
    const res = await postRpc(
      app.endpoint,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_business", arguments: {} } },
      { ...session(id), ...auth },
    );
    expect(res.status).toBe(200);
    expect(res.body.result.structuredContent.business.name).toBeTruthy();
  });

  it("lets a browser's preflight through with Authorization, on /mcp and the REST paths, since the header is ignored", async () => {
    // A browser sends nothing until the preflight allows every header the page set: a client that
    // adds a token it was configured with was refused by the browser before the server could ignore it.
    for (const [url, method] of [
      [app.endpoint, "POST"],
      [`${app.url}/api/reviews/search`, "GET"],
    ] as const) {
      const pre = await fetch(url, {
        method: "OPTIONS",
        headers: {
          origin: "https://any.example",
          "access-control-request-method": method,
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(pre.status, url).toBe(204);
      const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
      expect(allowed, url).toContain("authorization");
    }
  });

  it("allows any Origin by default and answers preflights with the MCP headers", async () => {
    const pre = await fetch(app.endpoint, {
      method: "OPTIONS",
      headers: {
        origin: "https://any.example",
        "access-control-request-method": "POST",
        "access-control-request-headers":
          "content-type, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = (pre.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/);
    for (const h of [
      "mcp-session-id",
      "mcp-protocol-version",
      "mcp-method",
      "mcp-name",
      "last-event-id",
      "content-type",
    ]) {
      expect(allowed).toContain(h);
    }
    // A browser client reads the session id from the initialize answer only if it is exposed.
    expect(pre.headers.get("access-control-expose-headers")).toMatch(/(^|,\s*)Mcp-Session-Id(,|$)/i);
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/DELETE/);
    const init = await postRpc(app.endpoint, initializeRequest(), { origin: "https://any.example" });
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBe("*");
    expect(init.headers.get("access-control-expose-headers")).toMatch(/Mcp-Session-Id/);
  });

  it("with an Origin allowlist, echoes a listed origin and refuses others with 403", async () => {
    const listed = await start({ MCP_ALLOWED_ORIGINS: "https://app.example, http://localhost:3000" });
    const ok = await postRpc(listed.endpoint, initializeRequest(), { origin: "https://app.example" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(ok.headers.get("vary")).toMatch(/Origin/);
    const bad = await postRpc(listed.endpoint, initializeRequest(), { origin: "https://evil.example" });
    expect([bad.status, bad.body.error.code]).toEqual([403, -32000]);
    const pre = await fetch(listed.endpoint, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(403);
    // Non-browser clients send no Origin and are not affected.
    expect((await postRpc(listed.endpoint, initializeRequest())).status).toBe(200);
  });

  it("echoes a listed origin on the rate limiter's 429 too, and still refuses others with 403", async () => {
    const listed = await start({ MCP_ALLOWED_ORIGINS: "https://app.example", RATE_LIMIT_PER_MINUTE: "1" });
    const origin = { origin: "https://app.example" };
    expect((await postRpc(listed.endpoint, initializeRequest(), origin)).status).toBe(200);
    const refused = await postRpc(listed.endpoint, initializeRequest(), origin);
    expect([refused.status, refused.body.error.code]).toEqual([429, -32000]);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(refused.headers.get("vary")).toMatch(/Origin/);
    expect(exposed(refused.headers)).toEqual(MCP_EXPOSED);
    const other = await postRpc(listed.endpoint, initializeRequest(), { origin: "https://evil.example" });
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([403, null]);
  });

  it("routes /mcp case-sensitively: /MCP is a plain 404 under the public policies, not MCP", async () => {
    const limited = await start({ RATE_LIMIT_PER_MINUTE: "1" });
    for (const spelling of ["/MCP", "/Mcp"]) {
      const res = await fetch(`${limited.url}${spelling}`, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, origin: "https://any.example" },
        body: JSON.stringify(initializeRequest()),
      });
      const text = await res.text();
      expect(res.headers.get("mcp-session-id"), spelling).toBeNull();
      expect(text, spelling).not.toContain("jsonrpc");
      expect(res.headers.get("access-control-expose-headers"), spelling).toMatch(/ETag/);
      // The first is the one request the budget allows; the second is the REST 429.
      expect(res.status, spelling).toBe(spelling === "/MCP" ? 404 : 429);
    }
  });
});

describe("bounded sessions", () => {
  it("ends a session whose DELETE was recorded, and keeps refusing it after the record goes", async () => {
    const clock = new ManualClock();
    const sessions = new MemorySessionStore({ idleMs: TTL, clock });
    const timed = await start({ MCP_SESSION_TTL_MS: String(TTL) }, clock, sessions);
    const id = await openSession(timed.endpoint);
    expect((await send(timed.endpoint, "DELETE", session(id))).status).toBe(200);
    expect(sessions.size).toBe(1);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
    clock.advance(TTL);
    expect(sessions.prune()).toBe(1);
    expect(sessions.size).toBe(0);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
  });

  it("keeps a session whose client closed its event stream for the idle timeout from the close, not from the last renewal", async () => {
    const clock = new ManualClock();
    const timed = await start({ MCP_SESSION_TTL_MS: String(TTL) }, clock);
    const id = await openSession(timed.endpoint);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const abort = new AbortController();
    const stream = await fetch(timed.endpoint, {
      headers: { accept: "text/event-stream", ...session(id) },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    // Renewed at half the time left: at TTL / 2, and not again before TTL.
    clock.advance(TTL / 2);
    await settle();
    clock.advance(TTL / 2 - 1_000);
    await settle();
    abort.abort();
    await waitFor(() => timed.mcp.openStreams === 0);
    // configuration.md: the session expires the idle timeout after its stream was closed.
    clock.advance(TTL - 1_000);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(200);
    clock.advance(TTL);
    expect((await postRpc(timed.endpoint, listTools(), session(id))).status).toBe(404);
  });

  it("lets a session hold several GET streams, at most MCP_MAX_STREAMS in all, then answers 503", async () => {
    const capped = await start({ MCP_MAX_STREAMS: String(MAX_STREAMS_PER_SESSION + 1) });
    const [a, b] = [await openSession(capped.endpoint), await openSession(capped.endpoint)];
    const own: Response[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) own.push(await send(capped.endpoint, "GET", session(a)));
    expect(own.map((r) => r.status)).toEqual(own.map(() => 200));
    expect(capped.mcp.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    // One more on the same session (a reconnecting client) closes its oldest, and only that one.
    const oldestEnded = streamEnds(own[0] as Response);
    const newest = await send(capped.endpoint, "GET", session(a));
    expect(newest.status).toBe(200);
    await expect(oldestEnded).resolves.toBe(true);
    expect(capped.mcp.openStreams).toBe(MAX_STREAMS_PER_SESSION);
    const ofB = await send(capped.endpoint, "GET", session(b));
    expect(ofB.status).toBe(200);
    const refused = await send(capped.endpoint, "GET", session(b));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect([refused.headers.get("access-control-allow-origin"), exposed(refused.headers)]).toEqual(["*", MCP_EXPOSED]);
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: STREAM_LIMIT_CODE } });
    // DELETE ends every stream of the session.
    const ended = [...own.slice(1), newest].map(streamEnds);
    expect((await send(capped.endpoint, "DELETE", session(a))).status).toBe(200);
    await expect(Promise.all(ended)).resolves.toEqual(ended.map(() => true));
    expect(capped.mcp.openStreams).toBe(1);
    // A client that hangs up frees its place.
    await ofB.body?.cancel();
    await waitFor(() => capped.mcp.openStreams === 0);
  });

  it("holds one client to MCP_MAX_STREAMS_PER_CLIENT streams of both eras together, and gives a place back when one closes", async () => {
    const shared = await start({ MCP_MAX_STREAMS_PER_CLIENT: "2" });
    const [a, b] = [await openSession(shared.endpoint), await openSession(shared.endpoint)];
    const first = await send(shared.endpoint, "GET", session(a));
    const second = await send(shared.endpoint, "GET", session(b));
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await send(shared.endpoint, "GET", session(a));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect(await refused.json()).toMatchObject({
      error: {
        code: STREAM_LIMIT_CODE,
        message: expect.stringContaining("this client has 2 change-notice streams open"),
      },
    });
    // The server's cap is far off: the share is the client's own.
    expect(shared.mcp.openStreams).toBe(2);
    // Requests that open no stream do not count against it.
    expect((await postRpc(shared.endpoint, listTools(), session(a))).status).toBe(200);
    await first.body?.cancel();
    await waitFor(() => shared.mcp.openStreams === 1);
    const again = await send(shared.endpoint, "GET", session(a));
    expect(again.status).toBe(200);
    await Promise.all([again.body?.cancel(), second.body?.cancel()]);
  });

  it("counts an IPv6 client's share by its /56, as the rate limit does, not by each of its addresses", async () => {
    const shared = await start({ MCP_MAX_STREAMS_PER_CLIENT: "2", TRUST_PROXY: "1" });
    const from = async (address: string) =>
      send(shared.endpoint, "GET", { ...session(await openSession(shared.endpoint)), "x-forwarded-for": address });
    const held = [await from("2001:db8:1:2::1"), await from("2001:db8:1:2::2")];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    // Another address of the same subscriber's prefix: the same client.
    const refused = await from("2001:db8:1:2:aaaa::3");
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: STREAM_LIMIT_CODE } });
    // Another subscriber's prefix has a share of its own.
    const other = await from("2001:db8:1:300::1");
    expect(other.status).toBe(200);
    await Promise.all([...held, other].map((r) => r.body?.cancel()));
  });

  it("answers subscriptions/listen past MCP_MAX_STREAMS as the 2025 GET: 503, Retry-After, the same code", async () => {
    const capped = await start({ MCP_MAX_STREAMS: "1" });
    const listen = (id: number) => {
      const _meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      };
      const notifications = { resourceSubscriptions: [`${BASE}/reviews.json`] };
      return fetch(capped.endpoint, {
        method: "POST",
        headers: {
          ...JSON_RPC_HEADERS,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "subscriptions/listen",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta } }),
      });
    };
    const first = await listen(1);
    expect([first.status, first.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const refused = await listen(2);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(STREAM_RETRY_AFTER_S));
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: STREAM_LIMIT_CODE } });
    expect(capped.mcp.openListens).toBe(1);
    await first.body?.cancel();
    await waitFor(() => capped.mcp.openListens === 0);
    const again = await listen(3);
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("closes every stream of both eras on shutdown and refuses new requests", async () => {
    const closing = await start();
    const id = await openSession(closing.endpoint);
    const stream = await send(closing.endpoint, "GET", session(id));
    const ended = streamEnds(stream);
    const { client } = await connectClient(closing.endpoint, "modern");
    const listen = await client.listen({ resourceSubscriptions: [`${BASE}/reviews.json`] });
    await closing.mcp.close();
    await expect(ended).resolves.toBe(true);
    await expect(listen.closed).resolves.toMatch(/graceful|remote/);
    await client.close();
    expect(closing.mcp.openStreams).toBe(0);
    expect((await postRpc(closing.endpoint, listTools(), session(id))).status).toBe(503);
    expect((await postRpc(closing.endpoint, initializeRequest())).status).toBe(503);
  });
});
