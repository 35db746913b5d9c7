import { connect } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../../sidecar/http/server.ts";
import { headersTooLargeBody } from "../../../src/api/schemas.ts";

/**
 * Requests Node cannot parse never reach Express; `listen` answers them (Node's `clientError`)
 * in the service's JSON 4xx shape rather than Node's bare status line.
 */

let running: RunningServer;

beforeAll(async () => {
  const app = express();
  app.get("/ok", (_req, res) => {
    res.json({ ok: true });
  });
  running = await listen(app, 0, "127.0.0.1");
});

afterAll(async () => {
  await running?.close(1000);
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(bytes: Buffer): Promise<{ status: number; headers: string; body: string }> {
  const { port, hostname } = new URL(running.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body });
    });
  });
}

describe("a request Node cannot parse", () => {
  it("with raw UTF-8 bytes in the path gets the JSON 400 {error, message, issues}", async () => {
    const line = Buffer.concat([
      Buffer.from("GET /reviews/"),
      Buffer.from("é✓", "utf8"),
      Buffer.from(" HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ]);
    const res = await raw(line);
    expect(res.status).toBe(400);
    expect(res.headers).toContain("content-type: application/json");
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ error: "bad_request", issues: [{ path: "(request)" }] });
    expect(body.message).toMatch(/percent-encode/);
    expect(Object.keys(body).sort()).toEqual(["error", "issues", "message"]);
  });

  it("with oversized headers gets a JSON 431, and a garbled request line a JSON 400", async () => {
    const big = await raw(Buffer.from(`GET /ok HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({ error: "request_header_fields_too_large" });
    // A URL over 16 KiB is refused the same way, before the app could answer 414: /openapi.json declares both.
    const url = await raw(Buffer.from(`GET /ok?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
    expect(url.status).toBe(431);
    expect(JSON.parse(url.body)).toEqual(headersTooLargeBody());
    const garbled = await raw(Buffer.from("NOT HTTP AT ALL\r\n\r\n"));
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ error: "bad_request", issues: [{ path: "(request)" }] });
  });

  it("names the unknown method of a request pipelined after a known one, not the known one", async () => {
    const both = "GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\nFOO /ok HTTP/1.1\r\nHost: localhost\r\n\r\n";
    const { port, hostname } = new URL(running.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(both));
      const chunks: Buffer[] = [];
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain("HTTP/1.1 501 ");
    expect(text).toContain('"issues":[{"path":"(method)","value":"FOO"');
  });

  it("with a well-formed request line but a method the server does not know gets a JSON 501, not a 400", async () => {
    // RFC 9110 §9.1: an unrecognised method SHOULD be 501; methods are case-sensitive, so `get` is one.
    for (const method of ["FOO", "get", "M-SEARCH2"]) {
      const res = await raw(Buffer.from(`${method} /ok HTTP/1.1\r\nHost: localhost\r\n\r\n`));
      expect(res.status, method).toBe(501);
      expect(res.headers).toContain("content-type: application/json");
      expect(JSON.parse(res.body)).toMatchObject({
        error: "not_implemented",
        issues: [{ path: "(method)", value: method }],
      });
    }
    // Bytes that are no request line at all (a TLS handshake sent to this port) stay a 400.
    const tls = await raw(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]));
    expect(tls.status).toBe(400);
  });

  it("leaves well-formed requests to the app", async () => {
    const ok = await raw(Buffer.from("GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
    expect(ok.status).toBe(200);
  });
});
