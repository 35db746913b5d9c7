import type { Request, Response } from "express";
import { clientKey } from "../rate-limit.ts";
import { rpcError } from "./rpc-error.ts";
import { STREAM_LIMIT_CODE, STREAM_RETRY_AFTER_S } from "./stream-limit.ts";

/**
 * Each client's share of the change-notice streams (`MCP_MAX_STREAMS_PER_CLIENT`). The streams are
 * few (`MCP_MAX_STREAMS` per era), and an open stream renews its session: one client that held
 * them all would keep every other client's GET and `subscriptions/listen` at 503 for as long as it
 * liked, well within the rate limit. Counted per address (`req.ip`: behind `TRUST_PROXY`, the
 * client's; an IPv6 one by its /56) over the requests that may open a stream, from arrival until
 * their response closes, so a request that opens none gives its place back at once. Past the share the answer is the stream
 * cap's (stream-limit.ts), naming this client's share.
 */
export class ClientStreams {
  readonly #max: number;
  readonly #open = new Map<string, number>();

  constructor(max: number) {
    this.#max = max;
  }

  /** Clients holding a place now (each address is forgotten once its last place is given back). */
  get clients(): number {
    return this.#open.size;
  }

  /** Runs `serve` holding one of the client's places, or answers 503 when it holds them all. */
  serve(req: Request, res: Response, id: string | number | null, serve: () => unknown): unknown {
    // An IPv6 client by its /56, as the rate limit counts it: one subscriber has all its addresses.
    const client = clientKey(req.ip ?? req.socket.remoteAddress ?? "");
    const held = this.#open.get(client) ?? 0;
    if (held >= this.#max) {
      res.setHeader("Retry-After", String(STREAM_RETRY_AFTER_S));
      return rpcError(
        res,
        503,
        STREAM_LIMIT_CODE,
        `Service Unavailable: this client has ${this.#max} change-notice streams open, the most one client may hold; close one, or try again in ${STREAM_RETRY_AFTER_S} s`,
        id,
      );
    }
    this.#open.set(client, held + 1);
    res.once("close", () => {
      const left = (this.#open.get(client) ?? 1) - 1;
      if (left > 0) this.#open.set(client, left);
      else this.#open.delete(client);
    });
    return serve();
  }
}
