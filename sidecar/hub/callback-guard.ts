import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The SSRF guard. A hub makes outbound requests to URLs that strangers choose, so without this a
 * subscriber could aim verification GETs and content POSTs at the hub's own network (a metadata
 * service at 169.254.169.254, an admin port on 127.0.0.1). Addresses are classified here, by
 * ipaddr.js's special-purpose ranges; the agent in http-client.ts applies the check to the address
 * it actually connects to.
 */

export type AddressCategory =
  | "unspecified"
  | "loopback"
  | "private"
  | "CGNAT"
  | "link-local"
  | "unique-local"
  | "multicast"
  | "reserved";

/** ipaddr.js's range names that have a word of their own; every other non-`unicast` range is "reserved". */
const WORDS: Record<string, AddressCategory> = {
  unspecified: "unspecified",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "CGNAT",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  multicast: "multicast",
};

/**
 * Refused whatever they embed: the local-use NAT64 prefix (RFC 8215) places its IPv4 address
 * by a prefix length only the operator knows, and IPv4-compatible addresses (RFC 4291 §2.5.5.1)
 * are deprecated, so neither can be judged by an address read out of it.
 */
const REFUSED_PREFIXES: [ipaddr.IPv6, number][] = [
  ipaddr.IPv6.parseCIDR("64:ff9b:1::/48"),
  ipaddr.IPv6.parseCIDR("::/96"),
];

/** Strips `[...]` and a zone id (`fe80::1%eth0`) so URL hostnames and socket addresses compare alike. */
function bare(ip: string): string {
  const unbracketed = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf("%");
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/**
 * The IPv4 address a gateway would connect to for a well-known-prefix NAT64 address
 * (64:ff9b::/96, the last 32 bits) or a 6to4 one (2002::/16, bits 16–47).
 */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const g = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  if (range === "rfc6052") return v4(g[6] ?? 0, g[7] ?? 0);
  if (range === "6to4") return v4(g[1] ?? 0, g[2] ?? 0);
  return undefined;
}

function categoryOf(ip: ipaddr.IPv4 | ipaddr.IPv6): AddressCategory | undefined {
  const range = ip.range();
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    // ::1 and :: lie inside ::/96 but have ranges of their own.
    if ((range === "unicast" || range === "rfc6052") && REFUSED_PREFIXES.some((cidr) => v6.match(cidr))) {
      return "reserved";
    }
    // An IPv4-mapped address is the IPv4 address it maps.
    if (range === "ipv4Mapped") return categoryOf(v6.toIPv4Address());
    const inner = embeddedIPv4(v6, range);
    if (inner) return categoryOf(inner);
  }
  return range === "unicast" ? undefined : (WORDS[range] ?? "reserved");
}

/**
 * Why an address must not be contacted, or `undefined` when it is a public unicast address.
 * Accepts bare or bracketed IPv4/IPv6 literals; anything that is not an IP literal gets `undefined`.
 */
export function forbiddenCategory(address: string): AddressCategory | undefined {
  const ip = bare(address);
  // ipaddr.js alone would also take "0x7f.1" or "127.1"; only what a socket reports or a URL keeps counts.
  if (net.isIP(ip) === 0) return undefined;
  return categoryOf(ipaddr.parse(ip));
}

/** Thrown (and reported as the delivery or verification failure) when the guard refuses a host. */
export class ForbiddenAddressError extends Error {
  override name = "ForbiddenAddressError";
}

export function describeRefusal(host: string, address: string, category: AddressCategory): string {
  // By sound, not spelling: "an unspecified", but "a unique-local" and "a CGNAT".
  const a = category === "unspecified" ? "an" : "a";
  return host === address
    ? `${address} is ${a} ${category} address`
    : `${host} resolves to ${address}, ${a} ${category} address`;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A drop-in for `dns.lookup` that refuses a name if any of its addresses is forbidden. It runs at
 * connect time, for the connection being opened, so a name that resolved to a public address
 * earlier and to 127.0.0.1 now (DNS rebinding) is refused now.
 */
export function guardedLookup(
  resolve: typeof dns.lookup = dns.lookup,
): (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as dns.LookupAddress[];
      for (const { address } of list) {
        const category = forbiddenCategory(address);
        if (category) return callback(new ForbiddenAddressError(describeRefusal(hostname, address, category)), []);
      }
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      if (options.all) callback(null, list);
      else callback(null, first.address, first.family);
    });
  };
}
