import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBeforeAll } from "../helpers/build-site.ts";
import { type McpTestApp, MODERN_VERSION, startMcpApp } from "../helpers/mcp-app.ts";
import type { OpenApiDoc, Parameter } from "../helpers/openapi-oracle.ts";

/**
 * A client generated from `/openapi.json` sends the header parameters `postMcp` declares, and no
 * others: every header the server requires of a 2026-07-28 request must be among them.
 */

const CONTENT = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.test";
let app: McpTestApp;
let declared: Parameter[];

const built = buildBeforeAll(CONTENT, { BASE_URL: BASE });

beforeAll(async () => {
  app = await startMcpApp(built.distDir, { env: { BASE_URL: BASE } });
  const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc;
  declared = (doc.paths["/mcp"]?.post?.parameters ?? []).filter((p) => p.in === "header");
});

afterAll(async () => {
  await app?.close();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "generated-client", version: "0.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("POST /mcp's header parameters", () => {
  it("include every header a 2026-07-28 request is refused without", async () => {
    const requests: { method: string; params: Record<string, unknown>; name?: string }[] = [
      {
        method: "tools/call",
        params: { name: "search_reviews", arguments: { limit: 1 }, _meta: META },
        name: "search_reviews",
      },
      { method: "resources/read", params: { uri: `${BASE}/reviews.json`, _meta: META }, name: `${BASE}/reviews.json` },
      { method: "tools/list", params: { _meta: META } },
    ];
    for (const { method, params, name: target } of requests) {
      // What the request needs in each header, by its name in lower case.
      const values: Record<string, string> = {
        "mcp-protocol-version": MODERN_VERSION,
        "mcp-method": method,
        "mcp-name": target ?? "",
      };
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      for (let tries = 0; ; tries++) {
        const res = await fetch(app.endpoint, {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        const body = await res.json();
        if (res.status === 200) {
          expect(body.result, method).toBeDefined();
          break;
        }
        const missing = /required (\S+) header is absent/.exec(body.error?.message ?? "")?.[1];
        expect(missing, `${method}: ${JSON.stringify(body)}`).toBeDefined();
        const param = declared.find((p) => p.name.toLowerCase() === missing?.toLowerCase());
        expect(param, `${method}: the server requires ${missing}, which the document does not declare`).toBeDefined();
        const name = (param as Parameter).name;
        headers[name] = values[name.toLowerCase()] ?? "";
        expect(tries, method).toBeLessThan(3);
      }
    }
  });
});
