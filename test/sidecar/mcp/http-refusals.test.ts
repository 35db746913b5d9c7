import { describe, expect, it } from "vitest";
import { initializeRequest, JSON_RPC_HEADERS, openSession, postRpc } from "../../helpers/mcp-app.ts";
import {
  exposed,
  listTools,
  MCP_EXPOSED,
  send,
  servedMcpBuild,
  session,
  withHost,
} from "../../helpers/mcp-transport.ts";

/**
 * What /mcp refuses at the HTTP layer (Accept, rate, URL and body size, media type), each answered
 * as a JSON-RPC error.
 */

const served = servedMcpBuild();
const { start } = served;

describe("JSON-RPC errors", () => {
  it("answers a missing Accept type with 406 and too many requests with 429, both JSON-RPC errors", async () => {
    const id = await openSession(served.app.endpoint);
    const json = await postRpc(served.app.endpoint, listTools(), { ...session(id), accept: "application/json" });
    expect([json.status, json.body.jsonrpc, json.body.error.code]).toEqual([406, "2.0", -32000]);
    const stream = await send(served.app.endpoint, "GET", { ...session(id), accept: "application/json" });
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
    const init = await postRpc(served.app.endpoint, initializeRequest(), { accept });
    expect(init.status).toBe(200);
    const id = init.headers.get("mcp-session-id") as string;
    expect(id).toBeTruthy();
    const listed = await postRpc(served.app.endpoint, listTools(), { ...session(id), accept });
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.length).toBeGreaterThan(0);
    const stream = await send(served.app.endpoint, "GET", { ...session(id), accept: "TEXT/EVENT-STREAM" });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await stream.body?.cancel();
  });

  it("answers 406 when Accept refuses a type with q=0 or lists only a look-alike (RFC 9110 §12.4.2, §12.5.1)", async () => {
    const id = await openSession(served.app.endpoint);
    for (const accept of [
      "application/json;q=0, text/event-stream",
      "application/json, text/event-stream; Q=0.000",
      "application/jsonx, text/event-stream",
      "application/json, text/event-streams",
      "text/plain;x=application/json, text/event-stream",
    ]) {
      const listed = await postRpc(served.app.endpoint, listTools(), { ...session(id), accept });
      expect([listed.status, listed.body.error?.code], accept).toEqual([406, -32000]);
    }
    for (const accept of ["text/event-stream;q=0", "text/event-streamx", "application/json;x=text/event-stream"]) {
      const stream = await send(served.app.endpoint, "GET", { ...session(id), accept });
      expect(stream.status, accept).toBe(406);
      await stream.body?.cancel();
    }
    // A q-value that is not zero, or parameters on the listed types, still accept them.
    const weighted = "application/json;q=0.001, text/event-stream;charset=utf-8;q=1";
    expect((await postRpc(served.app.endpoint, listTools(), { ...session(id), accept: weighted })).status).toBe(200);
  });

  it("answers a URL over 4 KB with 414 as a JSON-RPC error with id null, as every /mcp refusal", async () => {
    const long = `${served.app.endpoint}?${"x".repeat(5000)}`;
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
    const tooBig = await postRpc(served.app.endpoint, big);
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, -32000]);
    const text = await postRpc(served.app.endpoint, JSON.stringify(initializeRequest()), {
      "content-type": "text/plain",
    });
    expect(text.status).toBe(415);
    const coded = await postRpc(served.app.endpoint, JSON.stringify(initializeRequest()), {
      "content-encoding": "compress",
    });
    expect([coded.status, coded.body.error.code]).toEqual([415, -32000]);
    expect(coded.headers.get("accept-encoding")).toMatch(/^gzip, deflate, br(, zstd)?$/);
  });

  it("reads a body whose charset is a WHATWG Encoding label of UTF-8 other than utf-8 (utf8, unicode-1-1-utf-8)", async () => {
    const id = await openSession(served.app.endpoint);
    for (const charset of ["utf8", "UTF8", "unicode-1-1-utf-8"]) {
      const res = await postRpc(served.app.endpoint, listTools(), {
        ...session(id),
        "content-type": `application/json; charset=${charset}`,
      });
      expect([res.status, res.body.result?.tools?.length > 0], charset).toEqual([200, true]);
    }
  });

  it("refuses a body in UTF-16 with 415 as any charset but UTF-8 (RFC 8259 §8.1), whatever its characters", async () => {
    const id = await openSession(served.app.endpoint);
    const call = (query: string) => ({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "search_reviews", arguments: { query } },
    });
    for (const charset of ["utf-16", "utf-16le"]) {
      // ASCII text and text with an é, which in UTF-16 is not valid UTF-8 either: one answer for both.
      for (const query of ["back", "café"]) {
        const res = await fetch(served.app.endpoint, {
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

  it("quotes a long Host, charset or Content-Encoding cut, as an echoed value is, not whole", async () => {
    const long = "z".repeat(10_000);
    const cut = JSON.stringify(`${"z".repeat(200)}… (10000 characters)`);
    const host = await withHost(served.app.endpoint, long);
    expect(host.status).toBe(403);
    const message: string = JSON.parse(host.body).error.message;
    expect(message.startsWith(`Forbidden: Host ${cut} is not served here; use one of `), message).toBe(true);
    const charset = await postRpc(served.app.endpoint, initializeRequest(), {
      "content-type": `application/json; charset=${long}`,
    });
    expect([charset.status, charset.body.error.message]).toEqual([
      415,
      `Unsupported Media Type: unsupported charset ${JSON.stringify(`${"Z".repeat(200)}… (10000 characters)`)}; send UTF-8 JSON`,
    ]);
    const coded = await postRpc(served.app.endpoint, initializeRequest(), { "content-encoding": long });
    expect([coded.status, coded.body.error.message]).toEqual([
      415,
      `Unsupported Media Type: unsupported content encoding ${cut}; send UTF-8 JSON`,
    ]);
  });
});
