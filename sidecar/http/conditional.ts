import fresh from "fresh";

/**
 * Conditional requests per RFC 9110 §13.2.2, in its order: If-Match, else If-Unmodified-Since
 * (either failing is 412), then If-None-Match, else If-Modified-Since (a match on GET or HEAD is
 * 304). The 304 decision is Express's own `fresh`, given only the two conditional fields, so a
 * request's `Cache-Control: no-cache` (a directive to caches, not to the origin) does not turn a
 * revalidation into a full answer. A date that is not a valid HTTP-date (§5.6.7: a four-digit
 * year, one of three forms) is ignored, as §13.1.3 and §13.1.4 require.
 */

export interface Validators {
  etag: string;
  /** Epoch milliseconds; compared at one-second resolution like HTTP dates. */
  lastModifiedMs?: number;
  /** `lastModifiedMs` as an HTTP date, when there is one. */
  lastModified?: string;
}

export type Outcome = "send" | "not-modified" | "precondition-failed";

/** The request fields this module reads (Node lower-cases header names). */
export interface ConditionalHeaders {
  "if-match"?: string;
  "if-unmodified-since"?: string;
  "if-none-match"?: string;
  "if-modified-since"?: string;
}

/** Splits an entity-tag list into tags; quoted strings may contain commas. */
export function parseEtagList(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** The three forms of RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/** Epoch ms of a valid HTTP-date, else undefined (year 10000, `garbage`, an ISO date). */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined || !HTTP_DATE.test(value.trim())) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What to answer for `method` given the request's conditional fields. */
export function evaluateConditions(method: string, h: ConditionalHeaders, v: Validators): Outcome {
  const ifMatch = h["if-match"];
  if (ifMatch !== undefined) {
    // Strong comparison (§13.1.1): a weak tag never matches.
    const tags = parseEtagList(ifMatch);
    if (!tags.includes("*") && !tags.includes(v.etag)) return "precondition-failed";
  } else if (h["if-unmodified-since"] !== undefined && v.lastModifiedMs !== undefined) {
    const since = parseHttpDate(h["if-unmodified-since"]);
    if (since !== undefined && seconds(v.lastModifiedMs) > seconds(since)) return "precondition-failed";
  }
  if (method !== "GET" && method !== "HEAD") return "send";
  const inm = h["if-none-match"];
  let ims = h["if-modified-since"];
  if (inm === undefined && ims === undefined) return "send";
  if (ims !== undefined && parseHttpDate(ims) === undefined) ims = undefined;
  if (inm === undefined && ims === undefined) return "send";
  // `*` anywhere in the list matches any current representation, as alone.
  const anyTag = inm !== undefined && parseEtagList(inm).includes("*");
  const request = { "if-none-match": anyTag ? "*" : inm, "if-modified-since": ims };
  return fresh(request, { etag: v.etag, "last-modified": v.lastModified }) ? "not-modified" : "send";
}

/** Whether a request carries any conditional field, checked before anything else is computed. */
export function isConditional(h: ConditionalHeaders): boolean {
  return (
    h["if-none-match"] !== undefined ||
    h["if-modified-since"] !== undefined ||
    h["if-match"] !== undefined ||
    h["if-unmodified-since"] !== undefined
  );
}
