import ipaddr from "ipaddr.js";
import { decodeUnreserved } from "./topic-url.ts";

/**
 * A subscriber's callback as the hub keys it and as it calls it. W3C WebSub §5.1.1: "Hubs MUST
 * always decode non-reserved characters" of the callback URL, so the key has them decoded; §5.3:
 * "The hub MUST preserve the query string", so requests go to the path and query as sent, never
 * re-encoded by a URL parser. Only the origin, which says where to connect rather than what the
 * subscriber's server reads, is normalised in both.
 */

/**
 * Where the hub sends requests for this callback (`sent`): its origin as the WHATWG URL Standard
 * serialises it (scheme and host in lower case, no default port; RFC 3986 §6.2.2-6.2.3 count those
 * spellings equal), then the path and query exactly as sent, `/` for an empty path. And its key,
 * which (with the topic) names a subscription: the same with every percent-encoded unreserved
 * character decoded (RFC 3986 §2.3), so `%7e` and `~` are one subscription, and other escapes' hex
 * digits in upper case (§6.2.2.1: `%3a` is `%3A`); any other byte (`'` against `%27`) makes another. `raw` is a valid `hub.callback` (`CallbackSchema`), or either form
 * of one: it starts `https://` and has no fragment.
 */
function callbackParts(raw: string): { key: string; sent: string } {
  const origin = new URL(raw).origin;
  const rest = raw.replace(/^https:\/\/[^/?#]*/i, "");
  const target = rest.startsWith("/") ? rest : `/${rest}`;
  return { key: `${origin}${decodeUnreserved(target)}`, sent: `${origin}${target}` };
}

/** The callback's key (`callbackParts`). */
export function storedCallback(raw: string): string {
  return callbackParts(raw).key;
}

/**
 * The keys earlier versions stored a callback under: as sent (before unreserved characters were
 * decoded), then with them decoded but other escapes as sent (before their hex digits were put in
 * upper case). A renewal or an unsubscribe finds a row stored so.
 */
export function earlierKeys(raw: string): string[] {
  const origin = new URL(raw).origin;
  const { key, sent } = callbackParts(raw);
  const decoded = `${origin}${decodeUnreserved(sent.slice(origin.length), false)}`;
  return [...new Set([sent, decoded])].filter((k) => k !== key);
}

/**
 * The host a callback's subscriptions and pending requests are counted under (HUB_MAX_PER_HOST):
 * its hostname, an IPv4-mapped IPv6 literal as the IPv4 address it maps and an absolute domain
 * name (`reader.example.net.`) without its final dot, so another spelling of a host is not another host.
 */
export function callbackHost(raw: string): string {
  const host = new URL(raw).hostname;
  if (host.startsWith("[")) {
    const ip = ipaddr.IPv6.parse(host.slice(1, -1));
    return ip.isIPv4MappedAddress() ? ip.toIPv4Address().toString() : host;
  }
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** A request's `callback` (its key) and `givenCallback` (where the hub's requests go). */
export function callbackForms(raw: string): { callback: string; givenCallback: string } {
  const { key, sent } = callbackParts(raw);
  return { callback: key, givenCallback: sent };
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
