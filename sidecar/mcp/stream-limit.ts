import { idOf } from "./messages.ts";
import { rpcErrorResponse } from "./rpc-error.ts";

/**
 * The one answer past a change-notice stream cap, for both eras: a 2025 `GET /mcp` and a
 * 2026-07-28 `subscriptions/listen` get HTTP 503 with `Retry-After` and a JSON-RPC error `-32603`.
 *
 * Why these: MCP defines no error code for a resource limit. 2026-07-28 (basic/index, "Error
 * Codes") marks `-32000`…`-32019` as legacy that new implementations SHOULD NOT use and reserves
 * `-32020`…`-32099` for codes the specification defines, none of which fits; the standard
 * JSON-RPC `-32603` is what the SDK itself answers at its own listen cap. The HTTP status carries
 * the meaning: 503 (RFC 9110 §15.6.4) with Retry-After is "temporarily over capacity, retry",
 * which a client, a proxy and a person all read the same way. The SDK's listen refusal was
 * HTTP 200 (an in-band error), which a client cannot tell from a server fault; 405, the other
 * status 2025-06-18 names for a GET, would say the server offers no stream at all.
 */

/** Seconds a client should wait before opening a stream again once the cap was reached. */
export const STREAM_RETRY_AFTER_S = 30;

/** The JSON-RPC code of the answer past the cap (see above). */
export const STREAM_LIMIT_CODE = -32603;

export function streamLimitResponse(maxStreams: number, id: string | number | null = null): Response {
  const res = rpcErrorResponse(
    503,
    STREAM_LIMIT_CODE,
    `Service Unavailable: too many open change-notice streams (at most ${maxStreams}); try again in ${STREAM_RETRY_AFTER_S} s`,
    id,
  );
  res.headers.set("Retry-After", String(STREAM_RETRY_AFTER_S));
  return res;
}

type Serve = (request: Request, options?: { parsedBody?: unknown }) => Promise<Response>;

/**
 * `subscriptions/listen` bounded by our own count, so that past `max` the answer is
 * `streamLimitResponse` rather than the SDK's in-band refusal. A place is taken before the SDK
 * is called (two listens arriving together cannot both pass) and given back when the answer is
 * not a stream, when the stream ends (the SDK closes it on shutdown) or when the client leaves.
 * The SDK's own cap is set to the same `max`; it counts only streams already open, so it is never
 * reached first.
 */
export function countedListens(max: number, serve: Serve): Serve & { readonly open: number } {
  let open = 0;
  const handler: Serve = async (request, options) => {
    if (open >= max) return streamLimitResponse(max, idOf(options?.parsedBody));
    open++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      open--;
    };
    let response: Response;
    try {
      response = await serve(request, options);
    } catch (err) {
      release();
      throw err;
    }
    if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      release();
      return response;
    }
    request.signal.addEventListener("abort", release, { once: true });
    const counted = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: release }));
    return new Response(counted, { status: response.status, headers: response.headers });
  };
  return Object.defineProperty(handler, "open", { get: () => open }) as Serve & { readonly open: number };
}
