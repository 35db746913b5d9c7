import { readFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSession, postModern, postRpc, type RpcReply } from "../../helpers/mcp-app.ts";
import { mcpInBothEras } from "../../helpers/mcp-eras.ts";

/**
 * Protocol misuse answered as docs/mcp.md's error table says, the same way in both eras: a 2025
 * session's POST and a raw 2026-07-28 request.
 */

const CONTENT = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const mcp = mcpInBothEras(CONTENT, BASE);
const { session, bothEras } = mcp;

/** Sends raw HTTP/1.1 bytes and returns the status and body: fetch always frames a body. */
function rawPost(head: string, body = ""): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(mcp.app.endpoint);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(
        `POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
          "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
          `${head}\r\n${body}`,
      );
    });
    let text = "";
    socket.on("data", (d) => {
      text += d;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(text.split(" ")[1]);
      const payload = text.slice(text.indexOf("\r\n\r\n") + 4);
      // The answer may be chunked; the JSON object is what sits between its braces.
      resolve({ status, body: payload.slice(payload.indexOf("{"), payload.lastIndexOf("}") + 1) });
    });
  });
}

describe("resources/read", () => {
  it("answers a reviews:// URI with a bad percent-escape as an unknown URI: -32602 with the URI in data", async () => {
    for (const uri of ["reviews://%E0%A4", "reviews://%", "reviews://%ZZ"]) {
      for (const reply of await bothEras("resources/read", { uri }, uri)) {
        expect(reply.status, uri).toBe(200);
        expect(reply.body.error, uri).toMatchObject({ code: -32602, data: { uri } });
      }
    }
  });
});

describe("malformed params", () => {
  const cases: [string, Record<string, unknown>, string?][] = [
    ["resources/read", {}],
    ["resources/read", { uri: 5 }],
    ["tools/list", { cursor: 5 }],
    ["resources/templates/list", { cursor: 5 }],
    ["completion/complete", { argument: { name: "id", value: "2025" } }],
    [
      "completion/complete",
      { ref: { type: "ref/resource", uri: "reviews://{id}" }, argument: { name: "id", value: 5 } },
    ],
    ["tools/call", { arguments: {} }],
  ];

  it("get -32602 with the same readable message in both eras", async () => {
    for (const [method, params, name] of cases) {
      const [legacy, modern] = (await bothEras(method, params, name)) as [RpcReply, RpcReply];
      const what = `${method} ${JSON.stringify(params)}`;
      expect([legacy.status, legacy.body.error?.code], what).toEqual([200, -32602]);
      expect([modern.status, modern.body.error?.code], what).toEqual([200, -32602]);
      expect(modern.body.error.message, what).toBe(legacy.body.error.message);
      expect(legacy.body.error.message, what).toMatch(new RegExp(`^Invalid params for ${method}: params\\.`));
      expect(legacy.body.error.message, what).not.toMatch(/\n|"code"/);
    }
  });
});

describe("an unknown method", () => {
  it("is -32601 with 200 in a 2025 session and the SDK's 404 in 2026-07-28, as docs/mcp.md's table says", async () => {
    const [legacy, modern] = await bothEras("reviews/nothing", {});
    expect([legacy?.status, legacy?.body.error?.code]).toEqual([200, -32601]);
    expect([modern?.status, modern?.body.error?.code]).toEqual([404, -32601]);
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/mcp.md"), "utf8");
    const row = doc.split("\n").find((line) => line.startsWith("| unknown method"));
    const [, , http, code] = (row ?? "").split("|").map((cell) => cell.trim());
    expect(http).toMatch(/^200\b/);
    expect(http).toMatch(/2026-07-28: 404\b/);
    expect(code).toBe("-32601");
  });
});

describe("methods 2026-07-28 removed", () => {
  it("are the SDK's 404 and -32601 whatever their params, not -32602", async () => {
    for (const method of ["initialize", "ping", "resources/subscribe", "resources/unsubscribe"]) {
      const reply = await postModern(mcp.app.endpoint, method, { uri: 5 });
      expect([reply.status, reply.body.error?.code], method).toEqual([404, -32601]);
    }
  });
});

describe("pagination", () => {
  it("refuses a cursor with -32602, as no list here is ever cut into pages", async () => {
    for (const method of ["tools/list", "resources/list", "resources/templates/list"]) {
      for (const reply of await bothEras(method, { cursor: "abc" })) {
        expect([reply.status, reply.body.error?.code], method).toEqual([200, -32602]);
        expect(reply.body.error.message, method).toMatch(/cursor/);
      }
      for (const reply of await bothEras(method, {})) expect(reply.body.result, method).toBeDefined();
    }
  });
});

describe("empty POST bodies", () => {
  it("are not JSON: 400 and -32700, whether framed with Content-Length 0, chunked or not at all", async () => {
    const empty = await fetch(mcp.app.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "",
    });
    expect([empty.status, (await empty.json()).error.code]).toEqual([400, -32700]);
    for (const [head, body] of [
      ["Content-Length: 0\r\n", ""],
      ["Transfer-Encoding: chunked\r\n", "0\r\n\r\n"],
      ["", ""],
    ] as const) {
      const reply = await rawPost(head, body);
      expect([reply.status, JSON.parse(reply.body).error.code], JSON.stringify(head)).toEqual([400, -32700]);
      expect(JSON.parse(reply.body).error.message).toMatch(/empty/);
    }
  });
});

describe("DELETE", () => {
  it("refuses an unsupported Mcp-Protocol-Version with 400 and leaves the session live", async () => {
    const id = await openSession(mcp.app.endpoint);
    const headers = { "mcp-session-id": id, accept: "application/json, text/event-stream" };
    const bad = await fetch(mcp.app.endpoint, {
      method: "DELETE",
      headers: { ...headers, "mcp-protocol-version": "1999-01-01" },
    });
    expect([bad.status, (await bad.json()).error.code]).toEqual([400, -32000]);
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const still = await postRpc(mcp.app.endpoint, list, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
    expect(still.status).toBe(200);
    const good = await fetch(mcp.app.endpoint, {
      method: "DELETE",
      headers: { ...headers, "mcp-protocol-version": "2025-06-18" },
    });
    expect(good.status).toBe(200);
  });
});

describe("resources/subscribe", () => {
  const subscribe = (uri: string) =>
    postRpc(mcp.app.endpoint, { jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri } }, session());

  it("keeps only a URI a change notice can name: a dataset, or reviews://{id} of a review that exists", async () => {
    const review = mcp.app.store.current.index.dataset.reviews[0]?.id as string;
    for (const uri of [`${BASE}/reviews.json`, `${BASE}/insights.json`, `reviews://${review}`]) {
      const reply = await subscribe(uri);
      expect([reply.status, reply.body.result], uri).toEqual([200, {}]);
    }
    const malformed = [
      "not a uri",
      `reviews://${"a".repeat(60_000)}`,
      `reviews://${"a".repeat(101)}`,
      "reviews://%ZZ",
      // Another spelling of an existing review: never the URI a notice names.
      `reviews://${review.replace("-", "%2D")}`,
      "reviews://Upper-Case",
      "reviews://a/b",
      "https://elsewhere.example/reviews.json",
    ];
    for (const uri of malformed) {
      const reply = await subscribe(uri);
      expect([reply.status, reply.body.error?.code], uri.slice(0, 40)).toEqual([200, -32602]);
      expect(reply.body.error.message).toMatch(/^Invalid params for resources\/subscribe: params\.uri: expected /);
      // Nothing of a long URI comes back.
      expect(JSON.stringify(reply.body).length).toBeLessThan(1_000);
    }
    const unknown = await subscribe("reviews://no-such-review");
    expect(unknown.body.error).toMatchObject({ code: -32602, data: { uri: "reviews://no-such-review" } });
    expect(unknown.body.error.message).toContain(`subscribe to ${BASE}/reviews.json`);
  });
});

describe("subscriptions/listen", () => {
  it("refuses a resource URI no notice will ever name, as resources/subscribe does, rather than acknowledging it", async () => {
    const review = mcp.app.store.current.index.dataset.reviews[0]?.id as string;
    const listen = (resourceSubscriptions: string[]) =>
      postModern(mcp.app.endpoint, "subscriptions/listen", { notifications: { resourceSubscriptions } });
    const cases: [string[], RegExp][] = [
      [["reviews://no-such-review"], /^No review has the URI reviews:\/\/no-such-review; subscribe to /],
      [
        [`${BASE}/reviews.json`, "HTTPS://REVIEWS.TEST/reviews.json"],
        /^Invalid params for subscriptions\/listen: params\.notifications\.resourceSubscriptions\[1\]: expected /,
      ],
      [[`reviews://${review.replace("-", "%2D")}`], /resourceSubscriptions\[0\]: expected /],
    ];
    for (const [uris, message] of cases) {
      const reply = await listen(uris);
      expect([reply.status, reply.body.error?.code], uris.join(" ")).toEqual([200, -32602]);
      expect(reply.body.error.message).toMatch(message);
      expect(reply.body.id).toBe(1);
    }
    expect(mcp.app.mcp.openListens).toBe(0);
  });
});

describe("a body that is no JSON-RPC message", () => {
  it("is refused with 400 and -32600 naming the member that is wrong and what it holds", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ id: null, method: "ping" }, /\bid\b.*string or an integer.*\bnull\b/],
      [{ id: 1.5, method: "ping" }, /\bid\b.*string or an integer.*1\.5/],
      [{ id: true, method: "ping" }, /\bid\b.*string or an integer.*boolean/],
      [{ id: 1, method: "ping", foo: 1 }, /"foo"/],
      [{ id: 1, method: "tools/list", params: [1] }, /\bparams\b.*array/],
      [{ method: 5 }, /\bmethod\b.*string.*number/],
      [{ id: 1, result: {}, error: { code: 1, message: "x" } }, /"error"/],
      [{ id: 1 }, /method.*result.*error/],
    ];
    for (const [message, why] of cases) {
      const res = await postRpc(mcp.app.endpoint, { jsonrpc: "2.0", ...message }, session());
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message, JSON.stringify(message)).toMatch(why);
    }
  });

  it("refuses an integer id that JSON.parse cannot read exactly, saying so, and echoes no id it was not sent", async () => {
    for (const id of ["9007199254740993", "12345678901234567890", "1e20", "-9007199254740993"]) {
      const res = await postRpc(mcp.app.endpoint, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, session());
      expect([res.status, res.body.error.code, res.body.id], id).toEqual([400, -32600, null]);
      expect(res.body.error.message, id).toMatch(/id: an integer beyond ±9007199254740991 .*I-JSON.*as a string/);
      expect(res.body.error.message, id).not.toMatch(/expected a string or an integer/);
    }
    // The largest exact one is an id like any other.
    const exact = await postRpc(mcp.app.endpoint, '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}', session());
    expect([exact.status, exact.body.id]).toEqual([200, 9007199254740991]);
  });

  it("names a member of no message without echoing a long name whole, as it names no long path whole", async () => {
    const long = "k".repeat(5000);
    for (const extra of [{ [long]: 1 }, Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key${i}`, 1]))]) {
      const res = await postRpc(mcp.app.endpoint, { jsonrpc: "2.0", id: 1, method: "ping", ...extra }, session());
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32600);
      expect(res.body.error.message).toMatch(/^Invalid Request: not a JSON-RPC 2.0 request: Unrecognized keys?: "k/);
      expect(res.body.error.message.length).toBeLessThan(400);
    }
  });
});

describe("a request refused for its session", () => {
  it("gets an error with the request's id, as JSON-RPC 2.0 asks of any error whose request id could be read", async () => {
    const ping = (id: string | number) => ({ jsonrpc: "2.0", id, method: "ping" });
    const missing = await postRpc(mcp.app.endpoint, ping(41), { "mcp-protocol-version": "2025-06-18" });
    expect([missing.status, missing.body.error.code, missing.body.id]).toEqual([400, -32000, 41]);
    const unknown = await postRpc(mcp.app.endpoint, ping("p-42"), {
      "mcp-session-id": "a.b",
      "mcp-protocol-version": "2025-06-18",
    });
    expect([unknown.status, unknown.body.error.code, unknown.body.id]).toEqual([404, -32001, "p-42"]);
  });
});
