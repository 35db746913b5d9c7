import type { Server } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import type { Express } from "express";

export interface RunningServer {
  server: Server;
  /** e.g. http://127.0.0.1:4321 */
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `port` (0 = any free port). Rejects on EADDRINUSE and friends. */
export function listen(app: Express, port: number, host: string): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
      const addr = server.address() as AddressInfo;
      const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
      resolve({
        server,
        url: `http://${h}:${addr.port}`,
        close: (graceMs = 10_000) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            // Keep-alive sockets with no request in flight would hold close() open.
            server.closeIdleConnections();
          }),
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
