import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { initializeRequest, JSON_RPC_HEADERS, postRpc } from "../../helpers/mcp-app.ts";
import { exposed, MCP_EXPOSED, servedMcpBuild, session, withHost } from "../../helpers/mcp-transport.ts";
import { rawRequest } from "../../helpers/raw-http.ts";

/** /mcp's Host and Origin checks, CORS, and what it ignores (Authorization) or leaves to the REST paths. */

const served = servedMcpBuild();
const { start } = served;

describe("security", () => {
  it("refuses a Host other than the BASE_URL host or loopback with 403", async () => {
    const port = new URL(served.app.url).port;
    expect((await withHost(served.app.endpoint, "evil.com")).status).toBe(403);
    expect(JSON.parse((await withHost(served.app.endpoint, `evil.com:${port}`)).body).error.message).toMatch(
      /evil\.com/,
    );
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "reviews.test"]) {
      expect((await withHost(served.app.endpoint, host)).status, host).toBe(200);
    }
  });

  it("lets a page of an allowed origin read the Host check's 403, and a refused origin read nothing", async () => {
    // The CORS spec hides an answer without Access-Control-Allow-Origin from the page; a
    // DNS-rebinding page is same-origin and reads it anyway, so the headers give it nothing.
    const any = await withHost(served.app.endpoint, "evil.com", { origin: "https://any.example" });
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

  it("answers a path below /mcp as a JSON-RPC 404, a plain OPTIONS there too, with no Allow for what is not there", async () => {
    const base = served.app.endpoint;
    for (const method of ["POST", "GET", "DELETE", "OPTIONS"]) {
      const res = await fetch(`${base}/tools`, {
        method,
        headers: JSON_RPC_HEADERS,
        ...(method === "POST" ? { body: JSON.stringify(initializeRequest()) } : {}),
      });
      expect([res.status, res.headers.get("allow")], method).toEqual([404, null]);
      expect(await res.json(), method).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "Not Found: nothing is served at /mcp/tools; the MCP endpoint is /mcp" },
      });
    }
    // /mcp itself, with or without its slash, still takes OPTIONS.
    for (const p of ["", "/"]) {
      const res = await fetch(`${base}${p}`, { method: "OPTIONS" });
      expect([res.status, res.headers.get("allow")], p).toEqual([204, "GET, POST, DELETE, OPTIONS"]);
    }
  });

  it("ignores Authorization", async () => {
    const auth = { authorization: "Bearer not-a-real-token" };
    const init = await postRpc(served.app.endpoint, initializeRequest(), auth);
    expect(init.status).toBe(200);
    const id = init.headers.get("mcp-session-id") as string;
    const res = await postRpc(
      served.app.endpoint,
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
      [served.app.endpoint, "POST"],
      [`${served.app.url}/api/reviews/search`, "GET"],
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
    const pre = await fetch(served.app.endpoint, {
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
    const init = await postRpc(served.app.endpoint, initializeRequest(), { origin: "https://any.example" });
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

describe("a missing, repeated or invalid Host", () => {
  it("gets the 400 as a JSON-RPC error on every method, the body /openapi.json declares for /mcp", async () => {
    const doc = await (await fetch(`${served.app.url}/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...doc, $id: "openapi" });
    const { port } = new URL(served.app.url);
    const hosts = [`Host: localhost:${port}\r\nHost: evil.example\r\n`, "Host:\r\n", "Host: a/b\r\n", ""];
    for (const method of ["POST", "GET", "DELETE"]) {
      const schema = doc.paths["/mcp"][method.toLowerCase()].responses["400"].content["application/json"].schema;
      for (const host of hosts) {
        const body = method === "POST" ? JSON.stringify(initializeRequest()) : "";
        const res = await rawRequest(
          served.app.url,
          `${method} /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        const what = `${method} ${JSON.stringify(host)}`;
        expect(res.status, what).toBe(400);
        const reply = JSON.parse(res.body);
        expect(ajv.validate({ $ref: `openapi${schema.$ref}` }, reply), `${what}: ${res.body}`).toBe(true);
        expect(reply.error.code, what).toBe(-32000);
        expect(reply.error.message, what).toMatch(/^Bad Request: .*Host/);
      }
    }
  });
});
