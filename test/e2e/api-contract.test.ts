import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../sidecar/mcp/session-store.ts";
import type { McpTestApp } from "../helpers/mcp-app.ts";
import { initializeRequest, JSON_RPC_HEADERS, openSession, startMcpApp } from "../helpers/mcp-app.ts";
import {
  CONTRACT_BASE,
  conforms as conformsTo,
  type Exchange,
  send,
  servedDocument,
} from "../helpers/openapi-contract.ts";
import type { DocumentOracle, OpenApiDoc, Operation, Schema } from "../helpers/openapi-oracle.ts";

/**
 * The served `/openapi.json` against the running server, as a contract tester sees it: requests
 * generated from the document (hundreds per operation, valid and invalid), each classified by the
 * document alone (ajv, JSON Schema 2020-12 with formats), must get the status the document
 * predicts, and every body must validate against the schema declared for that status, with every
 * header declared for it present.
 */

const BASE = CONTRACT_BASE;

const served = servedDocument();
let app: McpTestApp;
let oracle: DocumentOracle;
let doc: OpenApiDoc;

beforeAll(() => {
  ({ app, doc, oracle } = served);
});

const conforms = (o: Operation, ex: Exchange, context: string) => conformsTo(oracle, o, ex, context);

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
    const limited = await startMcpApp(served.distDir, {
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
