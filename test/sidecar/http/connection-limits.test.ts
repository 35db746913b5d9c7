import { connect, type Socket } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../../sidecar/http/server.ts";

/**
 * What one connection may hold of the server: a client that pipelines requests without reading
 * the answers, or that stops reading a response, must not make the server keep answers (and the
 * connection) for ever.
 */

const MAX_PIPELINED = 4;
/** Long enough that a reading client is never cut, short enough for a test to wait for. */
const STALLED_WRITE_MS = 300;
/** Far more than the kernel's socket buffers take, so most of it waits in the server's memory. */
const BIG = Buffer.alloc(64 * 1024 * 1024, 0x61);

let running: RunningServer;
let handled = 0;

beforeAll(async () => {
  const app = express();
  app.get("/small", (_req, res) => {
    handled++;
    res.json({ ok: true });
  });
  app.get("/big", (_req, res) => {
    res.type("text/plain").send(BIG);
  });
  // An event stream that stays quiet, as a change-notice stream does between keep-alives.
  app.get("/quiet-stream", (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(": open\n\n");
  });
  running = await listen(app, 0, "127.0.0.1", { maxPipelined: MAX_PIPELINED, stalledWriteMs: STALLED_WRITE_MS });
});

afterAll(async () => {
  await running?.close(1000);
});

/** A client connection, and the server's end of it (which closes even while the client reads nothing). */
function open(): Promise<Socket & { server: Promise<Socket> }> {
  const { port, hostname } = new URL(running.url);
  const server = new Promise<Socket>((resolve) => running.server.once("connection", resolve));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(Object.assign(socket, { server })));
    socket.on("error", reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once("close", () => resolve());
  });

function pipelined(path: string, n: number): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(n);
}

describe("HTTP/1.1 pipelining", () => {
  it(`answers ${MAX_PIPELINED} pipelined requests, then a 503 with Connection: close, and no more`, async () => {
    handled = 0;
    const socket = await open();
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.write(pipelined("/small", 500));
    await closed(socket);
    const text = Buffer.concat(chunks).toString("utf8");
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([...Array(MAX_PIPELINED).fill(200), 503]);
    expect(handled).toBe(MAX_PIPELINED);
    const last = text.slice(text.lastIndexOf("HTTP/1.1 503"));
    expect(last.toLowerCase()).toContain("connection: close");
    const body = JSON.parse(last.slice(last.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ error: "too_many_pipelined_requests" });
    expect(body.message).toMatch(new RegExp(`${MAX_PIPELINED}`));
  });

  it("keeps answering a client that waits for each answer before the next request", async () => {
    const socket = await open();
    let text = "";
    socket.on("data", (c) => {
      text += c.toString("utf8");
    });
    for (let i = 0; i < MAX_PIPELINED * 3; i++) {
      socket.write(pipelined("/small", 1));
      await new Promise<void>((resolve) => {
        const check = () => {
          if ((text.match(/HTTP\/1\.1 200 /g) ?? []).length > i) {
            socket.off("data", check);
            resolve();
          }
        };
        socket.on("data", check);
        check();
      });
    }
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  });
});

describe("a client that stops reading", () => {
  it("has its connection closed once its response has waited unread", async () => {
    const socket = await open();
    socket.pause();
    socket.write(pipelined("/big", 1));
    // The server gives up on the answer and closes; without the bound it would wait for ever.
    await closed(await socket.server);
    socket.destroy();
  });

  it("keeps a quiet event stream open: nothing waits to be written to it", async () => {
    const socket = await open();
    let text = "";
    socket.on("data", (c) => {
      text += c.toString("utf8");
    });
    socket.write(pipelined("/quiet-stream", 1));
    await new Promise((resolve) => setTimeout(resolve, STALLED_WRITE_MS * 4));
    expect(text).toContain(": open");
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  });

  it("still closes an idle keep-alive connection", { timeout: 20_000 }, async () => {
    const socket = await open();
    socket.resume();
    socket.write(pipelined("/small", 1));
    await closed(socket);
  });
});
