import { decodeUnreserved } from "./topic-url.ts";

/**
 * A subscriber's callback as the hub keys it and as it calls it. W3C WebSub §5.1.1: "Hubs MUST
 * always decode non-reserved characters" of the callback URL, so the key has them decoded; §5.3:
 * "The hub MUST preserve the query string", so requests go to the path and query as sent, never
 * re-encoded by a URL parser. Only the origin, which says where to connect rather than what the
 * subscriber's server reads, is normalised in both.
 */

/**
 * Where the hub sends requests for this callback: its origin as the WHATWG URL Standard serialises
 * it (scheme and host in lower case, no default port; RFC 3986 §6.2.2-6.2.3 count those spellings
 * equal), then the path and query exactly as sent, `/` for an empty path. `raw` is a valid
 * `hub.callback` (`CallbackSchema`): it starts `https://` and has no fragment.
 */
export function sentCallback(raw: string): string {
  const rest = raw.replace(/^https:\/\/[^/?#]*/i, "");
  return `${new URL(raw).origin}${rest.startsWith("/") ? rest : `/${rest}`}`;
}

/**
 * The callback's key, which (with the topic) names a subscription: `sentCallback` with every
 * percent-encoded unreserved character decoded (RFC 3986 §2.3), so `%7e` and `~` are one
 * subscription; any other byte (`'` against `%27`) makes another.
 */
export function storedCallback(raw: string): string {
  const sent = sentCallback(raw);
  const origin = new URL(sent).origin;
  return `${origin}${decodeUnreserved(sent.slice(origin.length))}`;
}

/** A request's `callback` (its key) and `givenCallback` (where the hub's requests go). */
export function callbackForms(raw: string): { callback: string; givenCallback: string } {
  return { callback: storedCallback(raw), givenCallback: sentCallback(raw) };
}

/**
 * Where a request to `callback` (a stored callback, possibly with `hub.*` parameters appended)
 * goes: the origin to connect to and the request target, byte for byte. Passed to undici as
 * `{ origin, path }`, since its `request(url)` re-serialises a URL string.
 */
export function requestTarget(callback: string): { origin: string; path: string } {
  const url = new URL(callback);
  // A callback stored by an earlier version is a WHATWG serialisation, so it starts with its origin too.
  const path = callback.startsWith(url.origin) ? callback.slice(url.origin.length) : `${url.pathname}${url.search}`;
  return { origin: url.origin, path };
}

/**
 * Appends `params` to the callback's own query without re-encoding it: a subscriber that put
 * `?id=a%20b&q='x'` in its callback gets exactly those bytes back, then the hub's parameters.
 */
export function withParams(callback: string, params: Record<string, string>): string {
  const sep = !callback.includes("?") ? "?" : callback.endsWith("?") ? "" : "&";
  return `${callback}${sep}${new URLSearchParams(params).toString()}`;
}
