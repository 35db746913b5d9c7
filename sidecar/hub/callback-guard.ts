import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The SSRF guard. A hub makes outbound requests to URLs that strangers choose, so without this a
 * subscriber could aim verification GETs and content POSTs at the hub's own network (a metadata
 * service at 169.254.169.254, an admin port on 127.0.0.1). Addresses are classified here; the
 * agent in http-client.ts applies the check to the address it actually connects to.
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

const RANGES: [AddressCategory, string, number, "ipv4" | "ipv6"][] = [
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["loopback", "::1", 128, "ipv6"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["CGNAT", "100.64.0.0", 10, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["unique-local", "fc00::", 7, "ipv6"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  ["multicast", "ff00::", 8, "ipv6"],
  // Reserved, benchmarking and documentation ranges: nothing legitimate listens there.
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["reserved", "192.0.2.0", 24, "ipv4"],
  ["reserved", "198.18.0.0", 15, "ipv4"],
  ["reserved", "198.51.100.0", 24, "ipv4"],
  ["reserved", "203.0.113.0", 24, "ipv4"],
  ["reserved", "::", 96, "ipv6"],
  ["reserved", "100::", 64, "ipv6"],
  ["reserved", "2001:db8::", 32, "ipv6"],
  ["reserved", "fec0::", 10, "ipv6"],
];

const LISTS = RANGES.map(([category, address, prefix, type]) => {
  const list = new net.BlockList();
  list.addSubnet(address, prefix, type);
  return { category, list };
});

/** Strips `[...]` and a zone id (`fe80::1%eth0`) so URL hostnames and socket addresses compare alike. */
function bare(ip: string): string {
  const unbracketed = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf("%");
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/**
 * NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16) addresses carry an IPv4 address that a
 * gateway will connect to, so they are judged by that address. IPv4-mapped addresses need no
 * special case: `net.BlockList` already matches `::ffff:a.b.c.d` against the IPv4 rules.
 */
function embeddedIPv4(ip: string): string | undefined {
  // ipaddr.js parses every IPv6 form (`::`, a dotted IPv4 tail) into its eight 16-bit groups.
  const g = ipaddr.IPv6.parse(ip).parts;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (g[0] === 0x64 && g[1] === 0xff9b && (g[2] === 1 || g.slice(2, 6).every((x) => x === 0))) {
    return v4(g[6] ?? 0, g[7] ?? 0);
  }
  if (g[0] === 0x2002) return v4(g[1] ?? 0, g[2] ?? 0);
  return undefined;
}

/**
 * Why an address must not be contacted, or `undefined` when it is a public unicast address.
 * Accepts bare or bracketed IPv4/IPv6 literals; anything that is not an IP literal gets `undefined`.
 */
export function forbiddenCategory(address: string): AddressCategory | undefined {
  const ip = bare(address);
  const family = net.isIP(ip);
  if (family === 0) return undefined;
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const { category, list } of LISTS) if (list.check(ip, type)) return category;
  const inner = family === 6 ? embeddedIPv4(ip) : undefined;
  return inner === undefined ? undefined : forbiddenCategory(inner);
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
