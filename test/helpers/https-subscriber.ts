import type { IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

/** One request as the subscriber saw it: `rawUrl` is the exact request target, undecoded. */
export interface SeenRequest {
  method: string;
  rawUrl: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export type Responder = (req: SeenRequest) => Reply | Promise<Reply>;

/** Confirms verification by echoing the challenge, accepts denial notices and deliveries. */
export const cooperative: Responder = (req) => {
  if (req.method === "GET") return { status: 200, body: req.query.get("hub.challenge") ?? "" };
  return { status: 204 };
};

/** A responder that answers as `cooperative` does, but only once `release` is called: requests stay pending until then. */
export function heldResponder(): { respond: Responder; release(): void } {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    async respond(req) {
      await held;
      return cooperative(req);
    },
    release: () => release(),
  };
}

/**
 * The hub settings of a deployment under test with many subscribers on this machine: loopback
 * callbacks allowed, no per-host or rate cap they would reach, and deliveries that time out,
 * retry and are supervised within seconds.
 */
export const LOCAL_SUBSCRIBERS_HUB_ENV = {
  HUB_ALLOW_PRIVATE_CALLBACKS: "true",
  HUB_MAX_PER_HOST: "1000",
  HUB_RATE_LIMIT_PER_MINUTE: "100000",
  HUB_DELIVERY_TIMEOUT_MS: "2000",
  HUB_RETRY_BASE_MS: "1000",
  HUB_QUEUE_SUPERVISE_SECONDS: "1",
};

export interface Subscriber {
  origin: string;
  requests: SeenRequest[];
  /** TLS connections the hub has opened so far: a kept-alive connection serves several requests. */
  connections: number;
  /** How the server answers from now on. */
  respond: Responder;
  callback(pathAndQuery?: string): string;
  /** Resolves once `count` requests matching `pred` have arrived (counting earlier ones too). */
  waitFor(pred: (r: SeenRequest) => boolean, count?: number): Promise<SeenRequest[]>;
  close(): Promise<void>;
}

export const isVerification = (mode?: string) => (r: SeenRequest) =>
  r.method === "GET" && (mode ? r.query.get("hub.mode") === mode : r.query.has("hub.challenge"));
export const isDelivery = (r: SeenRequest) => r.method === "POST";
export const isDenial = (r: SeenRequest) => r.method === "GET" && r.query.get("hub.mode") === "denied";

/** A real HTTPS subscriber on 127.0.0.1, recording every request it receives. */
export async function startSubscriber(tls: { key: string; cert: string }, respond = cooperative): Promise<Subscriber> {
  const requests: SeenRequest[] = [];
  const waiters = new Set<() => void>();
  const sub: Subscriber = {
    origin: "",
    requests,
    connections: 0,
    respond,
    callback: (p = "/callback") => `${sub.origin}${p}`,
    waitFor(pred, count = 1) {
      return new Promise((resolve) => {
        const check = () => {
          const hits = requests.filter(pred);
          if (hits.length < count) return false;
          waiters.delete(check);
          resolve(hits);
          return true;
        };
        if (!check()) waiters.add(check);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = https.createServer({ key: tls.key, cert: tls.cert }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawUrl = req.url ?? "/";
    const seen: SeenRequest = {
      method: req.method ?? "GET",
      rawUrl,
      query: new URL(rawUrl, "https://x").searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(seen);
    for (const check of [...waiters]) check();
    const reply = await sub.respond(seen);
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body ?? "");
  });
  server.on("secureConnection", () => sub.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sub.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sub;
}
