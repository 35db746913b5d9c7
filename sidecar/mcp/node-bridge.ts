import type { IncomingMessage, ServerResponse } from "node:http";
import { toWebRequest } from "@modelcontextprotocol/node";
import { isJsonContentType } from "@modelcontextprotocol/server";

/**
 * Express to the SDK's web-standard handlers and back: `toNodeHandler` of `@modelcontextprotocol/node`,
 * except for how a JSON answer is written. `toNodeHandler` streams every body, so a JSON answer
 * (every POST here: neither era answers in SSE unless the server sends progress, and no tool
 * does) went out chunked: the headers and the body in one write and the terminating chunk in a
 * second, so the client woke twice and decoded chunked framing for each tool result. A JSON answer
 * is complete when the SDK returns it, so it is read whole and sent in one write with its
 * `Content-Length`. Event streams (the change-notice GETs) are piped as `toNodeHandler` does.
 */

export type WebHandler = (request: Request, options?: { parsedBody?: unknown }) => Promise<Response>;

export interface NodeBridgeOptions {
  maxRequestBodySize: number;
  onerror: (err: Error) => void;
}

const INTERNAL_ERROR = { code: -32603, message: "Internal server error" };

export function nodeBridge(handler: WebHandler, opts: NodeBridgeOptions) {
  return async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    // Aborts the request's signal when the client goes away, so an open stream is torn down.
    let finished = false;
    const abort = new AbortController();
    res.on("close", () => {
      if (!finished) abort.abort();
    });
    let response: Response;
    try {
      const request = await toWebRequest(req, parsedBody, {
        signal: abort.signal,
        maxRequestBodySize: opts.maxRequestBodySize,
      });
      response = await handler(request, parsedBody === undefined ? undefined : { parsedBody });
    } catch (err) {
      opts.onerror(err instanceof Error ? err : new Error(String(err)));
      const id = (parsedBody as { id?: unknown } | undefined)?.id;
      response = Response.json(
        { jsonrpc: "2.0", error: INTERNAL_ERROR, id: typeof id === "string" || typeof id === "number" ? id : null },
        { status: 500 },
      );
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (response.body === null) {
      finished = true;
      res.writeHead(response.status, headers).end();
      return;
    }
    if (isJsonContentType(response.headers.get("content-type"))) {
      const body = Buffer.from(await response.arrayBuffer());
      headers["content-length"] = String(body.length);
      finished = true;
      res.writeHead(response.status, headers).end(body);
      return;
    }
    res.writeHead(response.status, headers);
    await pipeStream(response.body, res, abort.signal);
    finished = true;
    res.end();
  };
}

/** Writes a web stream to `res`, waiting for `drain` when the socket is full, until it ends or the client leaves. */
async function pipeStream(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const closed = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  try {
    for await (const chunk of body) {
      if (signal.aborted) break;
      if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
    }
  } catch {
    // The stream errored or was cancelled: end the response as toNodeHandler does.
  }
}
