import { createHash } from "node:crypto";
import type { RequestListener } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

/**
 * WebSub subscribers for the fan-out bench: a few real HTTPS servers on 127.0.0.1, each serving
 * many callback paths; every distinct callback URL is one subscriber. They confirm verification
 * by echoing the challenge and acknowledge a notification with 204 once its whole body has arrived.
 */
export interface Subscribers {
  callbacks: string[];
  /** Verification GETs answered so far. */
  readonly verified: number;
  /** Notifications acknowledged in the current (or last) round. */
  readonly acked: number;
  /**
   * Starts counting notifications: resolves with `performance.now()` when every callback has
   * acknowledged one whose body hashes to `sha256`, rejects on any other body or repeat.
   */
  expect(sha256: string): Promise<number>;
  close(): Promise<void>;
}

export async function startSubscribers(
  tls: { key: string; cert: string },
  total: number,
  servers: number,
): Promise<Subscribers> {
  let verified = 0;
  let acked = 0;
  let round: { sha256: string; seen: Set<string>; done: (t: number) => void; fail: (e: Error) => void } | undefined;
  const handler: RequestListener = (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (req.method === "GET") {
      verified++;
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(url.searchParams.get("hub.challenge") ?? "");
      return;
    }
    const hash = createHash("sha256");
    req.on("data", (chunk: Buffer) => hash.update(chunk));
    req.on("end", () => {
      res.writeHead(204);
      res.end();
      const r = round;
      if (!r) return;
      const digest = hash.digest("hex");
      const key = `${req.socket.localPort}${url.pathname}`;
      if (digest !== r.sha256) r.fail(new Error(`${key} received a body that is not the published content`));
      else if (r.seen.has(key)) r.fail(new Error(`${key} was notified twice`));
      r.seen.add(key);
      acked = r.seen.size;
      if (r.seen.size === total) {
        const t = performance.now();
        round = undefined;
        r.done(t);
      }
    });
  };
  const running = await Promise.all(
    Array.from({ length: servers }, async () => {
      const server = https.createServer({ key: tls.key, cert: tls.cert }, handler);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return server;
    }),
  );
  const ports = running.map((s) => (s.address() as AddressInfo).port);
  const callbacks = Array.from({ length: total }, (_, i) => `https://127.0.0.1:${ports[i % servers]}/websub/${i}`);
  return {
    callbacks,
    get verified() {
      return verified;
    },
    get acked() {
      return acked;
    },
    expect(sha256) {
      acked = 0;
      return new Promise((done, fail) => {
        round = { sha256, seen: new Set(), done, fail };
      });
    },
    async close() {
      await Promise.all(
        running.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
