import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * What one connection may make the server hold. Node parses every request of a read (up to 64 KiB,
 * a couple of thousand pipelined GETs) before it answers any, and keeps a response whose client
 * does not read it, with its connection, for ever: a few hundred connections that pipeline and
 * never read held gigabytes.
 */
export interface ConnectionLimits {
  /**
   * Requests one connection may have unanswered at once (HTTP/1.1 pipelining, RFC 9112 §9.3.2).
   * The next one is answered 503 with `Connection: close`, after those before it, and the
   * connection then closes; the client sends the rest again on a new one.
   */
  maxPipelined: number;
  /**
   * A connection whose response has waited this long without the client reading any of it is
   * closed. A slow reader is not (Node restarts the period while a write makes progress), nor is a
   * quiet event stream, with nothing waiting to be written.
   */
  stalledWriteMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { maxPipelined: 32, stalledWriteMs: 60_000 };

/**
 * Installs both limits on `server` and returns `handler` behind the pipelining bound; the
 * returned listener is the one to register for `request`.
 */
export function boundConnections(server: Server, handler: RequestListener, limits: ConnectionLimits): RequestListener {
  const unanswered = new WeakMap<Socket, number>();
  const refused = new WeakSet<Socket>();

  // Node arms this inactivity timer on every socket; with a listener, closing is ours to decide.
  server.timeout = limits.stalledWriteMs;
  server.on("timeout", (socket: Socket) => {
    // Idle keep-alive (what Node would close), or bytes the client has not taken for the whole period.
    if ((unanswered.get(socket) ?? 0) === 0 || socket.writableLength > 0) socket.destroy();
  });

  return (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    // Past the 503, the connection is closing: what the client pipelined after it is not answered.
    if (refused.has(socket)) return;
    const n = (unanswered.get(socket) ?? 0) + 1;
    if (n > limits.maxPipelined) {
      refused.add(socket);
      tooManyPipelined(res, limits.maxPipelined);
      return;
    }
    unanswered.set(socket, n);
    res.once("close", () => unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1));
    handler(req, res);
  };
}

function tooManyPipelined(res: ServerResponse, max: number): void {
  const message = `More than ${max} requests were pipelined on one connection without reading the answers; send the rest on a new connection.`;
  const body = JSON.stringify({
    error: "too_many_pipelined_requests",
    message,
    issues: [{ path: "(request)", value: null, message }],
  });
  res.writeHead(503, {
    "Content-Type": "application/json; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
