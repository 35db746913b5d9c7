import { describe, expect, it } from "vitest";
import { initializeRequest, JSON_RPC_HEADERS, openSession, postRpc } from "../../helpers/mcp-app.ts";
import { listTools, servedMcpBuild, session } from "../../helpers/mcp-transport.ts";

/** What /mcp answers a message it cannot read or run: the JSON-RPC error, and its HTTP status. */

const served = servedMcpBuild();

describe("JSON-RPC errors", () => {
  it("gives -32700 for a body that is not JSON", async () => {
    const id = await openSession(served.app.endpoint);
    for (const headers of [{}, session(id)]) {
      const res = await postRpc(served.app.endpoint, '{"jsonrpc":"2.0","id":1,', headers);
      expect([res.status, res.body.error.code, res.body.id]).toEqual([400, -32700, null]);
    }
  });

  it("gives -32700 for a body that is not UTF-8 (RFC 8259 §8.1), in both eras, rather than reading U+FFFD", async () => {
    const id = await openSession(served.app.endpoint);
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
      const res = await fetch(served.app.endpoint, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, ...headers },
        body,
      });
      const answer = await res.json();
      expect([res.status, answer.jsonrpc, answer.id, answer.error?.code]).toEqual([400, "2.0", null, -32700]);
      expect(answer.error.message).toContain("UTF-8");
    }
  });

  it("reads a body sent with Content-Encoding x-gzip as gzip (RFC 9110 §8.4.1.3), not as an unknown coding", async () => {
    const { gzipSync } = await import("node:zlib");
    for (const coding of ["x-gzip", "X-GZip"]) {
      const res = await fetch(served.app.endpoint, {
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
    const id = await openSession(served.app.endpoint);
    for (const coding of ["gzip", "deflate", "br"]) {
      for (const headers of [{}, session(id)]) {
        const res = await postRpc(served.app.endpoint, JSON.stringify(listTools()), {
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
    const id = await openSession(served.app.endpoint);
    const cases: [unknown, string | number | null][] = [
      [[], null],
      [5, null],
      [{ id: 7, method: "ping" }, 7],
      [{ jsonrpc: "1.0", id: "x", method: "ping" }, "x"],
      [{ jsonrpc: "2.0", id: 3, method: 12 }, 3],
    ];
    for (const [body, echoed] of cases) {
      const res = await postRpc(served.app.endpoint, JSON.stringify(body), session(id));
      expect([res.status, res.body.error.code, res.body.id], JSON.stringify(body)).toEqual([400, -32600, echoed]);
    }
  });

  it("gives -32601 for an unknown method and -32602 for invalid params", async () => {
    const id = await openSession(served.app.endpoint);
    const call = async (method: string, params?: unknown) =>
      (await postRpc(served.app.endpoint, { jsonrpc: "2.0", id: 9, method, params }, session(id))).body;
    expect((await call("reviews/delete")).error).toMatchObject({ code: -32601 });
    expect((await call("tools/call", {})).error).toMatchObject({ code: -32602, message: /tools\/call: params\.name/ });
    expect((await call("tools/call", { name: "search_reviews", arguments: "rating=5" })).error.code).toBe(-32602);
    expect((await call("resources/read", { uri: "reviews://nothing" })).error.code).toBe(-32602);
    const init = await postRpc(served.app.endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect([init.status, init.body.error.code]).toEqual([400, -32602]);
    expect(init.body.error.message).toMatch(/clientInfo/);
  });

  it("answers a body nested deeper than 64 levels with 400 and -32700, before anything walks it", async () => {
    const id = await openSession(served.app.endpoint);
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    for (const headers of [{}, session(id)]) {
      const deep = await postRpc(served.app.endpoint, nested(30_000), headers);
      expect([deep.status, deep.body.error.code, deep.body.id]).toEqual([400, -32700, null]);
      expect(deep.body.error.message).toMatch(/nests deeper than 64 levels/);
      const args = JSON.parse(`{"a":${nested(65)}}`);
      const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_business", arguments: args } };
      expect((await postRpc(served.app.endpoint, call, headers)).body.error.code).toBe(-32700);
    }
    // Within the bound the message reaches the server and is answered on its merits.
    const shallow = JSON.parse(`{"a":${nested(60)}}`);
    const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_business", arguments: shallow } };
    const reply = await postRpc(served.app.endpoint, call, session(id));
    expect([reply.status, reply.body.result.isError]).toEqual([200, true]);
  });

  it("refuses a message with a lone surrogate or a noncharacter anywhere with 400 and -32600, echoing none", async () => {
    const id = await openSession(served.app.endpoint);
    // JSON escapes, written by hand (a lone surrogate cannot travel as UTF-8), and one raw character.
    const bodies = [
      '{"jsonrpc":"\\uffff","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x\\uffff","arguments":{}}}',
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_review","arguments":{"id":"x\u{10FFFF}"}}}`,
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"reviews://a","\\ufdd0":1}}',
    ];
    for (const body of bodies) {
      const res = await fetch(served.app.endpoint, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, ...session(id) },
        body,
      });
      const text = await res.text();
      expect(res.status, body).toBe(400);
      expect(/[\uFDD0-\uFDEF\uFFFE\uFFFF]|\u{10FFFF}|\\ud8/iu.test(text), text).toBe(false);
      expect(JSON.parse(text)).toMatchObject({ error: { code: -32600 }, id: null });
      expect(JSON.parse(text).error.message).toMatch(/^Invalid Request: \$\S* .*I-JSON/);
    }
    // The SDK decodes an Mcp-Name header's =?base64?…?= form and quotes it in its errors.
    const named = await fetch(served.app.endpoint, {
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
    const id = await openSession(served.app.endpoint);
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
      const res = await fetch(served.app.endpoint, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, ...headers },
        body,
      });
      const answer = await res.json();
      expect([res.status, answer.error?.code], args).toEqual([400, -32600]);
      expect(answer.error.message).toMatch(/^Invalid Request: \$\.params\.arguments\.(min_rating|offset) .*I-JSON/);
    }
    // A number a double holds, however odd its spelling, is read as usual.
    const fine = await postRpc(
      served.app.endpoint,
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":1E1}}}',
      session(id),
    );
    expect([fine.status, fine.body.result.structuredContent.limit]).toEqual([200, 10]);
  });

  it("refuses a name given twice in one object with 400 and -32600 naming it, in both eras, rather than keeping the last", async () => {
    const id = await openSession(served.app.endpoint);
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
      const res = await fetch(served.app.endpoint, {
        method: "POST",
        headers: { ...JSON_RPC_HEADERS, ...headers },
        body,
      });
      const answer = await res.json();
      expect([res.status, answer.error?.code, answer.id], args).toEqual([400, -32600, null]);
      expect(answer.error.message).toMatch(
        /^Invalid Request: \$\.params\.arguments\.min_rating is given twice .*I-JSON/,
      );
    }
    // The same name in two objects is no duplicate.
    const fine = await postRpc(
      served.app.endpoint,
      '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"search_reviews","arguments":{"limit":1},"_meta":{"limit":2}}}',
      session(id),
    );
    expect([fine.status, fine.body.result.structuredContent.limit]).toEqual([200, 1]);
  });
});
