/**
 * Conditional GET evaluation per RFC 9110 §13.2.2: If-None-Match is evaluated first and, when
 * present, If-Modified-Since is ignored. If-None-Match uses weak comparison, accepts a list and `*`.
 */

export interface Validators {
  etag: string;
  /** Epoch milliseconds; compared at one-second resolution like HTTP dates. */
  lastModifiedMs?: number;
}

/** Opaque tag without the weak prefix, for weak comparison. */
function opaque(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/** Splits an If-None-Match field into entity tags; quoted strings may contain commas. */
export function parseEtagList(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

export function isNotModified(
  headers: { "if-none-match"?: string; "if-modified-since"?: string },
  v: Validators,
): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) {
    const tags = parseEtagList(inm);
    if (tags.includes("*")) return true;
    const mine = opaque(v.etag);
    return tags.some((t) => opaque(t) === mine);
  }
  const ims = headers["if-modified-since"];
  if (ims !== undefined && v.lastModifiedMs !== undefined) {
    const since = Date.parse(ims);
    // An unparseable date is ignored, as RFC 9110 requires.
    if (Number.isNaN(since)) return false;
    return Math.floor(v.lastModifiedMs / 1000) * 1000 <= since;
  }
  return false;
}
