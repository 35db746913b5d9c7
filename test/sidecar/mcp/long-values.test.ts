import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSession, postModern, postRpc, type RpcReply } from "../../helpers/mcp-app.ts";
import { mcpInBothEras } from "../../helpers/mcp-eras.ts";

/**
 * What /mcp quotes back of a long value a client sent: a string id is refused rather than echoed
 * whole (an answer must carry it exactly), and a name, URI or header in a refusal is cut as an
 * issue's value is (src/api/echoed-values.ts), in both eras.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const mcp = mcpInBothEras(CONTENT, BASE);
const { session, bothEras } = mcp;

describe("a string id", () => {
  it("refuses a string id over 256 characters, which every answer would have to carry whole, with id null", async () => {
    const modern = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    };
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const long = "i".repeat(5000);
    for (const [headers, params] of [
      [session(), {}],
      [modern, { _meta }],
    ] as const) {
      const res = await postRpc(mcp.app.endpoint, { jsonrpc: "2.0", id: long, method: "tools/list", params }, headers);
      expect([res.status, res.body.error.code, res.body.id]).toEqual([400, -32600, null]);
      expect(res.body.error.message).toBe(
        "Invalid Request: not a JSON-RPC 2.0 request: id: a string id may have at most 256 characters, got 5000",
      );
      // One of 256 characters is an id like any other, answered with it.
      const most = "i".repeat(256);
      const ok = await postRpc(mcp.app.endpoint, { jsonrpc: "2.0", id: most, method: "tools/list", params }, headers);
      expect([ok.status, ok.body.id], JSON.stringify(ok.body)).toEqual([200, most]);
    }
  });
});

describe("a name or URI that names nothing served", () => {
  const long = "z".repeat(3000);
  const shown = JSON.stringify(`${"z".repeat(200)}… (3000 characters)`);

  it("is quoted cut in both eras, as an issue's value is, not whole (the SDK quoted it whole)", async () => {
    const cases: [string, Record<string, unknown>, string | undefined, string][] = [
      ["tools/call", { name: long, arguments: {} }, long, `params.name: unknown tool ${shown}; tools are `],
      [
        "resources/read",
        { uri: `reviews://${long}` },
        `reviews://${long}`,
        "params.uri: no resource here has a URI of more than ",
      ],
      [
        "completion/complete",
        { ref: { type: "ref/resource", uri: `reviews://${long}` }, argument: { name: "id", value: "2" } },
        undefined,
        "params.ref.uri: no resource here has a URI of more than ",
      ],
      [
        "completion/complete",
        { ref: { type: "ref/prompt", name: long }, argument: { name: "id", value: "2" } },
        undefined,
        `params.ref.name: no prompt is served here, got ${shown}`,
      ],
    ];
    for (const [method, params, name, start] of cases) {
      const [legacy, modern] = (await bothEras(method, params, name)) as [RpcReply, RpcReply];
      for (const reply of [legacy, modern]) {
        expect([reply.status, reply.body.error?.code], method).toEqual([200, -32602]);
        expect(reply.body.error.message, method).toContain(`Invalid params for ${method}: ${start}`);
        expect(JSON.stringify(reply.body).length, method).toBeLessThan(700);
      }
    }
    // A short unknown tool name gets the same wording, with the tools there are.
    const [unknown] = (await bothEras("tools/call", { name: "get_nothing", arguments: {} }, "get_nothing")) as [
      RpcReply,
    ];
    expect(unknown.body.error.message).toBe(
      'Invalid params for tools/call: params.name: unknown tool "get_nothing"; tools are get_business, search_reviews, get_review, get_reviews_since, get_insights, get_log_checkpoint',
    );
  });
});

describe("a long header", () => {
  it("quotes a long unsupported Mcp-Protocol-Version cut, as an echoed value is, in either era's request", async () => {
    const id = await openSession(mcp.app.endpoint);
    const supported = "(supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)";
    // "1…" reads as a 2025-era version, "9…" as a newer one; the SDK quoted either whole.
    for (const digit of ["1", "9"]) {
      const long = digit.repeat(8000);
      const message = `Bad Request: Unsupported protocol version: ${digit.repeat(200)}… (8000 characters) ${supported}`;
      const headers = {
        "mcp-session-id": id,
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": long,
      };
      for (const method of ["POST", "GET", "DELETE"]) {
        const res = await fetch(mcp.app.endpoint, {
          method,
          headers: { ...headers, "content-type": "application/json" },
          ...(method === "POST" ? { body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) } : {}),
        });
        expect([res.status, await res.json()], `${digit} ${method}`).toEqual([
          400,
          { jsonrpc: "2.0", id: null, error: { code: -32000, message } },
        ]);
      }
    }
  });

  it("quotes a long Mcp-Method that disagrees with the body cut, in the SDK's words", async () => {
    const long = "m".repeat(8000);
    const cut = `${"m".repeat(200)}… (8000 characters)`;
    const reply = await postModern(mcp.app.endpoint, "tools/list");
    expect(reply.status).toBe(200);
    const res = await fetch(mcp.app.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": long,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw-http-test", version: "0.0.0" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    const why = `the body names method tools/list but the Mcp-Method header names ${cut}`;
    expect([res.status, await res.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        id: 5,
        error: {
          code: -32020,
          message: `Bad Request: the request headers and body disagree: ${why}`,
          data: { mismatch: { header: cut, body: why } },
        },
      },
    ]);
  });
});
