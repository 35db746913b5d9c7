import fresh from "fresh";

/**
 * Conditional requests per RFC 9110 §13.2.2, in its order: If-Match, else If-Unmodified-Since
 * (either failing is 412), then If-None-Match, else If-Modified-Since (a match on GET or HEAD is
 * 304). The 304 decision is Express's own `fresh`, given only the two conditional fields, so a
 * request's `Cache-Control: no-cache` (a directive to caches, not to the origin) does not turn a
 * revalidation into a full answer. A date that is not a valid HTTP-date (§5.6.7: a four-digit
 * year, one of three forms), or a list of dates, is ignored, as §13.1.3 and §13.1.4 require; so is
 * an If-Modified-Since later than the server's clock (a client's clock ahead of ours would
 * otherwise keep a cached copy of changed text).
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

/** One entity-tag of RFC 9110 §8.8.3: `W/` optional, then a quoted string of `etagc`. */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The members of an If-Match or If-None-Match field (§13.1.1, §13.1.2): exactly `*`, or a list
 * of entity-tags. A member that is no entity-tag ("1*2", `W/*`, `"a"*`) matches nothing; a `*`
 * inside a list is such a member, since the grammar has `*` only as the whole field.
 */
export function parseEtagList(header: string): string[] {
  if (header.trim() === "*") return ["*"];
  const tags: string[] = [];
  // Split at commas outside quotes: an opaque tag may hold a comma.
  for (const member of header.match(/(?:[^,"]|"[^"]*"?)+/g) ?? []) {
    const tag = member.trim();
    if (ENTITY_TAG.test(tag)) tags.push(tag);
  }
  return tags;
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "\\d{2}:\\d{2}:\\d{2}";
/** The three forms of RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/** The day, month, two-digit year and time of the RFC 850 form. */
const RFC850 = /^[A-Za-z]+, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}:\d{2}:\d{2}) GMT$/;

/**
 * Epoch ms of a valid HTTP-date, else undefined (year 10000, `garbage`, an ISO date). The RFC 850
 * form's two-digit year is the one with those digits that is at most 50 years after `nowMs`
 * (§5.6.7); `Date.parse` reads 50–99 as 1950–1999 whatever the year.
 */
export function parseHttpDate(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (text === undefined || !HTTP_DATE.test(text)) return undefined;
  const old = RFC850.exec(text);
  if (!old) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  const [, day, month, yy, time] = old;
  const at = (year: number) => Date.parse(`${day} ${month} ${year} ${time} GMT`);
  const limit = new Date(nowMs);
  limit.setUTCFullYear(limit.getUTCFullYear() + 50);
  let year = new Date(nowMs).getUTCFullYear() - (new Date(nowMs).getUTCFullYear() % 100) + Number(yy);
  if (at(year) > limit.getTime()) year -= 100;
  else if (at(year + 100) <= limit.getTime()) year += 100;
  const ms = at(year);
  return Number.isNaN(ms) ? undefined : ms;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The Last-Modified a response sent at `nowMs` carries: RFC 9110 §8.8.2.1 forbids one later than
 * the message's Date and has it replaced by the Date (a build machine's clock ahead of the
 * server's). `evaluateConditions` applies it itself: If-Unmodified-Since is read against the date
 * sent, If-Modified-Since against the file's own, so a copy older than it is never answered 304.
 */
export function servedLastModified(
  v: Pick<Validators, "lastModifiedMs" | "lastModified">,
  nowMs: number,
): Pick<Validators, "lastModifiedMs" | "lastModified"> {
  if (v.lastModifiedMs === undefined || seconds(v.lastModifiedMs) <= seconds(nowMs)) return v;
  const ms = seconds(nowMs) * 1000;
  return { lastModifiedMs: ms, lastModified: new Date(ms).toUTCString() };
}

/**
 * The conditional fields of a request. Node keeps only the first of several If-Modified-Since or
 * If-Unmodified-Since lines; their distinct values are joined here, so two lines read as the list
 * of dates §13.1.3 and §13.1.4 say to ignore, as one line with a comma does.
 */
export function conditionalFields(distinct: NodeJS.Dict<string[]>): ConditionalHeaders {
  const field = (name: keyof ConditionalHeaders) => distinct[name]?.join(", ");
  return {
    "if-match": field("if-match"),
    "if-unmodified-since": field("if-unmodified-since"),
    "if-none-match": field("if-none-match"),
    "if-modified-since": field("if-modified-since"),
  };
}

/**
 * What to answer for `method` given the request's conditional fields, at `nowMs` on the server's
 * clock. `v` has the file's own Last-Modified, even one ahead of the clock: a build stamped a second
 * after the previous one (two in one second) is sent with the clock's date, the previous build's,
 * and a cache holding the previous text must still get 200 for it.
 */
export function evaluateConditions(
  method: string,
  h: ConditionalHeaders,
  v: Validators,
  nowMs: number = Date.now(),
): Outcome {
  const ifMatch = h["if-match"];
  if (ifMatch !== undefined) {
    // Strong comparison (§13.1.1): a weak tag never matches.
    const tags = parseEtagList(ifMatch);
    if (!tags.includes("*") && !tags.includes(v.etag)) return "precondition-failed";
  } else if (h["if-unmodified-since"] !== undefined && v.lastModifiedMs !== undefined) {
    const since = parseHttpDate(h["if-unmodified-since"], nowMs);
    const sent = servedLastModified(v, nowMs).lastModifiedMs as number;
    if (since !== undefined && seconds(sent) > seconds(since)) return "precondition-failed";
  }
  if (method !== "GET" && method !== "HEAD") return "send";
  const inm = h["if-none-match"];
  let ims = h["if-modified-since"];
  if (inm === undefined && ims === undefined) return "send";
  if (ims !== undefined) {
    const date = parseHttpDate(ims, nowMs);
    if (date === undefined || seconds(date) > seconds(nowMs)) ims = undefined;
  }
  if (inm === undefined && ims === undefined) return "send";
  // `fresh` is given the members parsed here, so If-Match and If-None-Match read one grammar. A
  // field with no valid member matches nothing, and If-Modified-Since is still not evaluated.
  const tags = inm === undefined ? undefined : parseEtagList(inm);
  if (tags?.length === 0) return "send";
  const request = { "if-none-match": tags?.join(", "), "if-modified-since": ims };
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

/**
 * Whether a GET of a resource that has a representation but no validators (the probes) is a 304:
 * only `If-None-Match: *` makes it one (§13.1.2), whatever the request's Cache-Control, which
 * Express's own freshness check would read as "send it all".
 */
export function matchesAnyRepresentation(h: Pick<ConditionalHeaders, "if-none-match">): boolean {
  return h["if-none-match"] !== undefined && parseEtagList(h["if-none-match"]).includes("*");
}
