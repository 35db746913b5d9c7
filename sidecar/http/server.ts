import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { type AddressInfo, createServer, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Express } from "express";
import { headersTooLargeBody } from "../../src/api/schemas.ts";
import { boundConnections, CONNECTION_LIMITS, type ConnectionLimits } from "./connection-limits.ts";

export interface RunningServer {
  server: Server;
  /** e.g. http://127.0.0.1:4321 */
  url: string;
  /**
   * Stops accepting connections and waits (up to `graceMs`) until every in-flight request has
   * been answered, except open event streams, which never end by themselves. Every response from
   * then on carries `Connection: close`, so keep-alive clients let go instead of holding the
   * process for the grace period. A request whose body is still uploading is answered normally.
   */
  drain(graceMs?: number): Promise<void>;
  /** Drains, then closes every connection left (event streams), at the latest after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

const isEventStream = (res: ServerResponse) =>
  res.headersSent && /^text\/event-stream/i.test(String(res.getHeader("content-type") ?? ""));

/**
 * Listens on `port` (0 = any free port). Rejects on EADDRINUSE and friends. `limits` bound what one
 * connection may hold (connection-limits.ts); tests pass small ones.
 */
export function listen(
  app: Express,
  port: number,
  host: string,
  limits: ConnectionLimits = CONNECTION_LIMITS,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const inFlight = new Set<ServerResponse>();
    let draining = false;
    let settled: (() => void) | undefined;
    const check = () => {
      if (settled && [...inFlight].every(isEventStream)) settled();
    };
    // Node answers an HTTP/1.1 request without Host with an empty 400 before Express sees it;
    // the app's own check (middleware.ts, `requireHost`) answers it in the API's shape instead.
    const server = createHttpServer({ requireHostHeader: false });
    server.on("request", boundConnections(server, app, limits));
    // Node answers an Expect other than 100-continue with a bare, empty 417 the app never sees;
    // RFC 9110 §10.1.1 lets a server ignore an expectation it does not know, so the app answers.
    server.on("checkExpectation", (req, res) => server.emit("request", req, res));
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address() as AddressInfo;
      const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
      let closed: Promise<void> | undefined;
      let allClosed: Promise<void> | undefined;
      const drain = (graceMs = 10_000) =>
        new Promise<void>((done) => {
          if (!draining) {
            draining = true;
            for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
            allClosed = new Promise<void>((ended) => server.close(() => ended()));
            // Keep-alive sockets with no request in flight would hold close() open.
            server.closeIdleConnections();
          }
          const force = setTimeout(done, graceMs);
          force.unref();
          settled = () => {
            clearTimeout(force);
            done();
          };
          check();
        });
      resolve({
        server,
        url: `http://${h}:${addr.port}`,
        drain,
        close: (graceMs = 10_000) => {
          closed ??= drain(graceMs).then(async () => {
            server.closeIdleConnections();
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            await allClosed;
            clearTimeout(force);
          });
          return closed;
        },
      });
    });
    // Registered before Express's listener, so the header is set before any handler writes.
    server.prependListener("request", (_req, res: ServerResponse) => {
      if (draining) res.setHeader("Connection", "close");
      inFlight.add(res);
      res.once("close", () => {
        inFlight.delete(res);
        check();
      });
    });
    server.on("clientError", answerClientError);
    server.on("connect", answerConnect);
    server.headersTimeout = 20_000;
    server.requestTimeout = 60_000;
    server.keepAliveTimeout = 5_000;
  });
}

const TOO_LARGE = headersTooLargeBody();

/** What a request Node could not parse gets, by llhttp's or Node's error code. */
const CLIENT_ERRORS: Record<string, { status: number; error: string; message: string }> = {
  HPE_INVALID_URL: {
    status: 400,
    error: "bad_request",
    message: "The URL in the request line is not valid: percent-encode non-ASCII bytes, spaces and control characters.",
  },
  // The body /openapi.json declares: { error, message, issues: [{ path: "(request)", value: code, message }] }.
  HPE_HEADER_OVERFLOW: { status: 431, error: TOO_LARGE.error, message: TOO_LARGE.message },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: "request_timeout", message: "The request was not received in time." },
};

/**
 * Node's `clientError` event: a request that cannot be parsed never reaches Express, and Node's
 * default answer is a bare status line with an empty body. The service answers it in its own
 * 4xx shape, `{error, message, issues}` (the statuses Node would use: 431 for oversized headers,
 * 408 for a timeout, 400 otherwise). Nothing from the request is echoed, its bytes being what failed
 * to parse, but for the method of a well-formed request line with an unknown method, which is 501.
 */
function answerClientError(
  err: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number },
  socket: Socket,
): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const method = err.code === "HPE_INVALID_METHOD" ? unknownMethod(err.rawPacket, err.bytesParsed) : undefined;
  if (method !== undefined) {
    const message = `The method ${method} is not one this service implements (methods are case-sensitive).`;
    answerRaw(socket, 501, {
      error: "not_implemented",
      message,
      issues: [{ path: "(method)", value: method, message }],
    });
    return;
  }
  const known = CLIENT_ERRORS[err.code ?? ""];
  const { status, error, message } = known ?? {
    status: 400,
    error: "bad_request",
    message: `The request is not valid HTTP/1.1 (${err.code ?? "parse error"}).`,
  };
  answerRaw(socket, status, { error, message, issues: [{ path: "(request)", value: err.code ?? null, message }] });
}

/** A request line of RFC 9112 §3 whose method is a token: llhttp refuses a method it does not know. */
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}) [\x21-\x7e]+ HTTP\/\d\.\d\r?\n/;

/**
 * The method of a well-formed request line that llhttp refused as unknown (`FOO`, `get`): RFC 9110
 * §9.1 asks for 501 there, not the 400 of bytes that are no HTTP at all. Undefined for anything else.
 */
function unknownMethod(packet: Buffer | undefined, failedAt = 0): string | undefined {
  if (!packet) return undefined;
  // The line the parser failed in: a packet may hold pipelined requests before it.
  const start = packet.lastIndexOf(0x0a, Math.max(0, failedAt - 1)) + 1;
  return REQUEST_LINE.exec(packet.subarray(start, start + 8192).toString("latin1"))?.[1];
}

/**
 * Node's `connect` event: without a listener, a CONNECT request's connection is closed with no
 * answer at all. The service is no proxy and CONNECT names no resource of it, so it is 501 (RFC
 * 9110 §15.6.2), in the service's error shape.
 */
function answerConnect(req: IncomingMessage, socket: Duplex): void {
  const message = "CONNECT is not supported: this service is not a proxy; it answers GET and HEAD.";
  answerRaw(socket, 501, {
    error: "not_implemented",
    message,
    issues: [{ path: "(method)", value: req.method ?? null, message }],
  });
}

/** Writes a whole JSON error answer to a socket Express never saw, and closes it. */
function answerRaw(socket: Duplex, status: number, body: object): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      "X-Content-Type-Options: nosniff\r\n" +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      "Connection: close\r\n\r\n" +
      text,
  );
}

/**
 * Binds `port` (0 = any free port) on `host` and holds it until `release()`. `npm start` with
 * `PORT=0` and no BASE_URL must know its port before its first build, because the build bakes the
 * URL into every permalink; holding the port through the build leaves only the instant between
 * `release()` and `listen` for another process to take it (then listen fails with EADDRINUSE).
 */
export function reservePort(port: number, host: string): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    // Nothing is served on a held port: a connection (a build looking for the published review
    // log, say) is closed at once, so it fails fast and `close()` has nothing to wait for.
    const holder = createServer((socket) => socket.destroy());
    holder.once("error", reject);
    holder.listen(port, host, () => {
      resolve({
        port: (holder.address() as AddressInfo).port,
        release: () => new Promise<void>((done) => holder.close(() => done())),
      });
    });
  });
}
