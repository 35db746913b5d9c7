import type dns from "node:dns";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { describeRefusal, ForbiddenAddressError, forbiddenCategory, guardedLookup } from "./callback-guard.ts";

/**
 * The one HTTP client the hub uses for verification GETs, denial notices and content POSTs.
 *
 * - Keep-alive connections (undici's default pool per origin), so repeated deliveries to one
 *   subscriber reuse a TLS session.
 * - Every phase is bounded: connect, response headers and body each get `timeoutMs`; callers add
 *   an overall deadline with `withDeadline`.
 * - Redirects are never followed: undici 8 only follows them through an interceptor, and none is
 *   installed, so a 3xx reaches the caller as a plain status.
 * - TLS verification stays on with Node's default CA list. No `ca` option is passed, because that
 *   would replace the list and `NODE_EXTRA_CA_CERTS` would stop working.
 * - With `allowPrivate` off, the SSRF guard runs at three points of every new connection: an IP
 *   literal is refused before connecting, a host name is refused inside the connection's own DNS
 *   lookup, and the peer address of the connected socket is checked once more.
 * - Every request carries a `User-Agent` naming the service and its public URL, so a subscriber's
 *   operator can tell where the verification GETs and notifications come from and whom to ask.
 */
export interface HubAgentOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** The service's public URL (BASE_URL), named in the User-Agent. */
  baseUrl: string;
  /** DNS resolver used for connections; tests may replace it. Default `dns.lookup`. */
  resolve?: typeof dns.lookup;
}

/** `public-reviews-websub-hub/1.0 (+https://reviews.example.org/)`: the product, then where it lives. */
export function hubUserAgent(baseUrl: string): string {
  return `public-reviews-websub-hub/1.0 (+${new URL(baseUrl).href})`;
}

/** Adds the User-Agent to every request the dispatcher sends, whatever shape its headers take. */
function withUserAgent(userAgent: string): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const h = options.headers;
    const headers = Array.isArray(h)
      ? [...h, "user-agent", userAgent]
      : { ...(h as Record<string, string> | null | undefined), "user-agent": userAgent };
    return dispatch({ ...options, headers }, handler);
  };
}

export function createHubAgent(opts: HubAgentOptions): Dispatcher {
  return rawAgent(opts).compose(withUserAgent(hubUserAgent(opts.baseUrl)));
}

function rawAgent(opts: HubAgentOptions): Agent {
  if (opts.allowPrivate) {
    return new Agent({
      connect: { timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }
  const connect = buildConnector({ timeout: opts.timeoutMs, lookup: guardedLookup(opts.resolve) });
  const guarded: buildConnector.connector = (options, callback) => {
    const literal = forbiddenCategory(options.hostname);
    if (literal) {
      callback(new ForbiddenAddressError(describeRefusal(options.hostname, options.hostname, literal)), null);
      return;
    }
    connect(options, (err, socket) => {
      if (err || !socket) {
        callback(err ?? new Error("connection failed"), null);
        return;
      }
      const peer = socket.remoteAddress ?? "";
      const category = peer === "" ? "unspecified" : forbiddenCategory(peer);
      if (category) {
        socket.destroy();
        callback(new ForbiddenAddressError(describeRefusal(options.hostname, peer, category)), null);
        return;
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect: guarded, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
}

/** The innermost cause of an undici error, which names what actually went wrong (TLS, DNS, guard). */
export function failureReason(err: unknown): string {
  let e = err as { message?: string; cause?: unknown; code?: string } | undefined;
  while (e?.cause && typeof e.cause === "object") e = e.cause as typeof e;
  const message = e?.message ?? String(err);
  return e?.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

/**
 * Runs `fn` with a signal that aborts when `parent` does or `timeoutMs` after the start, with the
 * same reason `AbortSignal.timeout` gives, and releases the timer and the listener once `fn`
 * settles. `AbortSignal.any([parent, AbortSignal.timeout(ms)])` cannot be released: every
 * request's timer would fire `ms` later, long after the request, and build a DOMException, and
 * undici's listener on a composite signal costs more to add, in every delivery of a fan-out.
 * `parent` gets one listener per request in flight (see `Hub`'s setMaxListeners).
 */
export async function withDeadline<T>(
  parent: AbortSignal,
  timeoutMs: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
  }, timeoutMs);
  timer.unref();
  try {
    return await fn(controller.signal);
  } finally {
    clearTimeout(timer);
    parent.removeEventListener("abort", onAbort);
  }
}
