/**
 * A subscriber's callback as the hub keys, stores and calls it. W3C WebSub §5.3: "The hub MUST
 * preserve the query string", so the path and query are never re-encoded by a URL parser; only the
 * origin, which says where to connect rather than what the subscriber's server reads, is normalised.
 */

/**
 * The callback's stored form: its origin as the WHATWG URL Standard serialises it (scheme and host
 * in lower case, no default port; RFC 3986 §6.2.2-6.2.3 count those spellings equal), then the
 * path and query exactly as sent, `/` for an empty path. So spellings that differ only there are
 * one subscription, and any other byte (`%7e` against `~`) makes another. `raw` is a valid
 * `hub.callback` (`CallbackSchema`): it starts `https://` and has no fragment.
 */
export function storedCallback(raw: string): string {
  const rest = raw.replace(/^https:\/\/[^/?#]*/i, "");
  return `${new URL(raw).origin}${rest.startsWith("/") ? rest : `/${rest}`}`;
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
