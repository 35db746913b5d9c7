import type { Server, ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import type { Express } from "express";

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

/** Listens on `port` (0 = any free port). Rejects on EADDRINUSE and friends. */
export function listen(app: Express, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const inFlight = new Set<ServerResponse>();
    let draining = false;
    let settled: (() => void) | undefined;
    const check = () => {
      if (settled && [...inFlight].every(isEventStream)) settled();
    };
    const server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
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
    server.headersTimeout = 20_000;
    server.requestTimeout = 60_000;
    server.keepAliveTimeout = 5_000;
  });
}

/**
 * Binds `port` (0 = any free port) on `host` and holds it until `release()`. `npm start` with
 * `PORT=0` and no BASE_URL must know its port before its first build, because the build bakes the
 * URL into every permalink; holding the port through the build leaves only the instant between
 * `release()` and `listen` for another process to take it (then listen fails with EADDRINUSE).
 */
export function reservePort(port: number, host: string): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const holder = createServer();
    holder.once("error", reject);
    holder.listen(port, host, () => {
      resolve({
        port: (holder.address() as AddressInfo).port,
        release: () => new Promise<void>((done) => holder.close(() => done())),
      });
    });
  });
}
