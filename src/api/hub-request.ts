import { z } from "zod";
import type { QueryIssue } from "../search/query.ts";
import { echoedValue, shownValue } from "./echoed-values.ts";

/**
 * Shapes of the form-encoded requests POSTed to the hub (W3C WebSub §5.1 and the de-facto
 * `hub.mode=publish` ping). One source of truth: the route validates with these and the OpenAPI
 * document is generated from them (`z.toJSONSchema(HubRequestSchema, { io: "input" })`).
 * Unknown parameters are stripped, as §5.1 requires hubs to ignore them.
 */

export const MAX_CALLBACK_LENGTH = 2048;
/** A topic URL's bound, as a callback's: every verification and denial request echoes it as sent. */
export const MAX_TOPIC_LENGTH = 2048;
/** `hub.secret` must be shorter than this many bytes (W3C §5.1). */
export const MAX_SECRET_BYTES = 200;

/**
 * What RFC 3986 lets a URI contain. The hub sends a callback's path and query exactly as given
 * (W3C WebSub §5.3), so anything a URL parser would have to encode first is refused instead.
 */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const NOT_A_URI = "must be a URI: percent-encode what RFC 3986 does not allow (a space, a non-ASCII letter, a lone %)";

export const CallbackSchema = z
  .string()
  .max(MAX_CALLBACK_LENGTH, `must be at most ${MAX_CALLBACK_LENGTH} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an absolute https URL" });
      return;
    }
    if (url.protocol !== "https:") ctx.addIssue({ code: "custom", message: "must be an https URL" });
    // `https:///host/cb` has an empty authority, which RFC 9110 §4.2.2 says to reject; the URL
    // parser would read `host` as the host and leave the path the hub sends, `/host/cb`, wrong.
    else if (!/^https:\/\/[^/?#]/i.test(value))
      ctx.addIssue({ code: "custom", message: "must be an absolute https URL" });
    else if (!URI_CHARACTERS.test(value)) ctx.addIssue({ code: "custom", message: NOT_A_URI });
    else if (value.includes("#")) ctx.addIssue({ code: "custom", message: "must not contain a fragment" });
    else if (url.username || url.password) ctx.addIssue({ code: "custom", message: "must not contain user info" });
    else if (url.port === "0")
      ctx.addIssue({ code: "custom", message: "must not have port 0, which no server can be reached on" });
  })
  .meta({
    description:
      "The subscriber's callback: an absolute https URI (RFC 3986 characters only) without fragment, user info or port 0. Its path and query are used exactly as given.",
  });

/**
 * PostgreSQL's text cannot hold U+0000, so with DATABASE_URL a request whose topic or secret has
 * one could not be recorded, while SQLite would keep it: both refuse it alike, naming the parameter.
 */
const NO_NUL = "must not contain U+0000 (NUL, %00)";
const withoutNul = (s: string) => !s.includes("\u0000");
const NO_NUL_PATTERN = "^[^\\u0000]*$";

const TopicSchema = z
  .string()
  .min(1, "is required")
  .max(MAX_TOPIC_LENGTH, `must be at most ${MAX_TOPIC_LENGTH} characters`)
  .refine(withoutNul, NO_NUL)
  .meta({
    description: `One of the hub's topics: {BASE_URL}/feed.xml, {BASE_URL}/api/feed.json, {BASE_URL}/reviews.json, at most ${MAX_TOPIC_LENGTH} characters.`,
    pattern: NO_NUL_PATTERN,
  });

export const SubscriptionRequestSchema = z.object({
  "hub.mode": z.enum(["subscribe", "unsubscribe"]),
  "hub.callback": CallbackSchema,
  "hub.topic": TopicSchema,
  "hub.lease_seconds": z
    .string()
    .regex(/^\d+$/, "must be a whole number of seconds")
    .max(10, "must be at most 10 digits (a lease past the hub's bounds is clamped to them)")
    .optional()
    .meta({
      description:
        "Requested lease in whole seconds (at most 10 digits); ignored in an unsubscription, as W3C WebSub §5.1 asks. Default 864000 (10 days). A lease outside the hub's bounds (HUB_LEASE_MIN_SECONDS to HUB_LEASE_MAX_SECONDS, 1 hour to 30 days by default) is not refused: it is clamped, and the verification request's hub.lease_seconds is the lease granted.",
    }),
  "hub.secret": z
    .string()
    .refine((s) => Buffer.byteLength(s, "utf8") < MAX_SECRET_BYTES, `must be shorter than ${MAX_SECRET_BYTES} bytes`)
    .refine(withoutNul, NO_NUL)
    .optional()
    .meta({
      description: `When given, each notification carries \`X-Hub-Signature: sha256=<hex HMAC of the body>\`. Must be shorter than ${MAX_SECRET_BYTES} bytes (UTF-8), without U+0000; a longer one is refused with 400.`,
      pattern: NO_NUL_PATTERN,
    }),
});

const TopicList = z.union([TopicSchema, z.array(TopicSchema).min(1)]);

export const PublishRequestSchema = z
  .object({
    "hub.mode": z.literal("publish"),
    "hub.url": TopicList.optional().meta({
      description:
        "Topic(s) whose content changed; may be repeated. Required (or hub.topic): a publish without a topic URL is refused with 400, and so is any URL that is not one of the hub's three topics.",
    }),
    "hub.topic": TopicList.optional().meta({ description: "Synonym of hub.url." }),
  })
  .refine((r) => r["hub.url"] !== undefined || r["hub.topic"] !== undefined, {
    message: "is required (or hub.topic)",
    path: ["hub.url"],
  })
  // The refinement, as JSON Schema says it, so the document refuses what the hub refuses.
  .meta({ anyOf: [{ required: ["hub.url"] }, { required: ["hub.topic"] }] });

export const HubRequestSchema = z.discriminatedUnion("hub.mode", [SubscriptionRequestSchema, PublishRequestSchema]);

export type SubscriptionRequest = z.infer<typeof SubscriptionRequestSchema>;
export type PublishRequest = z.infer<typeof PublishRequestSchema>;
export type HubRequest = z.infer<typeof HubRequestSchema>;

/** The API's error codes (the Error body's `error`) of the hub's refusals, by status. */
const HUB_ERROR_CODES: Readonly<Record<number, string>> = {
  400: "invalid_hub_request",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "unavailable",
};

/** A refusal as the API's Error body, for a client that prefers JSON: a 400 always has its issues. */
export function hubErrorBody(status: number, message: string, issues: readonly QueryIssue[] = []) {
  const listed = issues.map((i) => ({ ...i, value: echoedValue(i.value) }));
  return { error: HUB_ERROR_CODES[status] ?? "error", message, ...(status === 400 ? { issues: listed } : {}) };
}

export type ParsedHubRequest = { ok: true; request: HubRequest } | { ok: false; reason: string; issues: QueryIssue[] };

type Refusal = ReturnType<typeof hubRefusal>;

/** Every refusal at once, so a client mends its request in one go: the reasons joined, the issues listed. */
function refused(list: readonly Refusal[]): Extract<ParsedHubRequest, { ok: false }> {
  return { ok: false, reason: list.map((r) => r.reason).join("; "), issues: list.map((r) => r.issue) };
}

/** A refusal of `field`: the plain-text reason (`field: message, got …`) and the same as an issue. */
export function hubRefusal(field: string, message: string, value: unknown, got = shownValue(value)) {
  // A parameter not given is `null`: an issue always has its value (QueryIssue).
  return { reason: `${field}: ${message}, got ${got}`, issue: { path: field, value: value ?? null, message } };
}

const SINGLE_FIELDS = ["hub.mode", "hub.callback", "hub.topic", "hub.lease_seconds", "hub.secret"] as const;

/** The parameters the hub reads; any other is ignored (§5.1), whatever its encoding. */
const HUB_FIELDS: ReadonlySet<string> = new Set([...SINGLE_FIELDS, "hub.url"]);
const NOT_UTF8 = "must be percent-encoded UTF-8 (%XX escapes that decode to UTF-8 text, %25 for a literal %)";

/**
 * `text` (the body's bytes read as Latin-1, one character a byte) percent-decoded as UTF-8, or
 * undefined when its bytes, escaped or sent as they are, are not UTF-8: a raw byte is escaped
 * first, so a lone 0xE9 (é in ISO-8859-1) is refused like `%E9`, which the form parser would read
 * as U+FFFD, and raw UTF-8 is read as what it is.
 */
function percentDecoded(text: string): string | undefined {
  const escaped = text.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  try {
    return decodeURIComponent(escaped.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * The refusal of every hub parameter in a UTF-8 form body whose value does not percent-decode to
 * UTF-8 (`%FF`, a lone `%`, a byte sent unescaped that is not UTF-8), as one, or undefined. The form
 * parser keeps such a value as its literal text, so a secret sent as `%FF%FE` would key the
 * signatures with those six characters; the hub cannot tell what was meant, so it refuses. A secret
 * is not echoed, only the length of what was sent. An unsubscription's `hub.lease_seconds` is
 * ignored (`parseHubRequest`), so it is not refused either.
 */
export function undecodableParameter(body: string): { reason: string; issues: QueryIssue[] } | undefined {
  const found: Refusal[] = [];
  const pairs = body.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    return { field: percentDecoded(eq < 0 ? pair : pair.slice(0, eq)), raw: eq < 0 ? "" : pair.slice(eq + 1) };
  });
  const unsubscribe = pairs.some((p) => p.field === "hub.mode" && percentDecoded(p.raw) === "unsubscribe");
  for (const { field, raw } of pairs) {
    if (field === undefined || !HUB_FIELDS.has(field)) continue;
    if (unsubscribe && field === "hub.lease_seconds") continue;
    if (percentDecoded(raw) !== undefined) continue;
    const size = `${raw.length} bytes as sent`;
    found.push(field === "hub.secret" ? hubRefusal(field, NOT_UTF8, size, size) : hubRefusal(field, NOT_UTF8, raw));
  }
  return found.length === 0 ? undefined : refused(found);
}

/**
 * Validates a parsed form body. Empty values count as absent, so `hub.secret=` means "no secret".
 * The reason names each parameter at fault and echoes what was received, e.g.
 * `hub.callback: must be an https URL, got "http://example.com/cb"; hub.topic: is required, got nothing`.
 * Given the hub's `checks`, a topic URL that names none of its topics, or a callback it will not
 * call, is one of those parameters too.
 */
export function parseHubRequest(body: unknown, checks?: HubChecks): ParsedHubRequest {
  const form: Record<string, unknown> = {};
  for (const [key, given] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    // An empty one of repeated values is absent too: `hub.url=&hub.url=X` names X alone.
    const value = Array.isArray(given) ? given.filter((v) => v !== "") : given;
    if (Array.isArray(value) && value.length <= 1) {
      if (value.length === 1) form[key] = value[0];
    } else if (value !== "") form[key] = value;
  }
  const mode = form["hub.mode"];
  // W3C §5.1: "Hubs MUST ignore this parameter for unsubscription requests."
  if (mode === "unsubscribe") delete form["hub.lease_seconds"];
  const repeated: Refusal[] = [];
  for (const field of SINGLE_FIELDS) {
    if (field === "hub.topic" && mode === "publish") continue;
    const value = form[field];
    if (Array.isArray(value)) {
      const echoed = field === "hub.secret" ? `${value.length} values` : value;
      repeated.push(hubRefusal(field, "must be given once", echoed, `${value.length} values`));
    }
  }
  // A repeated parameter is left out of the schema's check, so the others at fault are named beside it.
  const once = repeated.map((r) => r.issue.path);
  const parsed = HubRequestSchema.safeParse(
    Object.fromEntries(Object.entries(form).filter(([k]) => !once.includes(k))),
  );
  // One refusal a parameter: its first issue, as the schema checks them.
  const byField = new Map<string, Refusal>(repeated.map((r) => [r.issue.path, r]));
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : "hub.mode";
    if (byField.has(field)) continue;
    const message =
      field === "hub.mode" && issue.code === "invalid_union"
        ? "must be subscribe, unsubscribe or publish"
        : issue.message.replace(/^Invalid input: expected string, received undefined$/, "is required");
    // A secret is never echoed back, not even a rejected one.
    const size = `${Buffer.byteLength(String(form[field]), "utf8")} bytes`;
    byField.set(
      field,
      field === "hub.secret" ? hubRefusal(field, message, size, size) : hubRefusal(field, message, form[field]),
    );
  }
  if (checks) hubChecks(form, checks, byField);
  if (parsed.success && byField.size === 0) return { ok: true, request: parsed.data };
  return refused(byField.size > 0 ? [...byField.values()] : [hubRefusal("hub.mode", "invalid hub request", mode)]);
}

/** What the hub itself checks of a request (hub.ts): its topics, and the callbacks it will not call. */
export interface HubChecks {
  topics: readonly string[];
  /** The topic a URL names (another spelling of one included), if any. */
  topicOf(raw: string): string | undefined;
  /** Why the hub will not call a callback the schema accepts, if it will not. */
  callbackRefusal?(callback: string): string | undefined;
}

/**
 * Adds to `byField` what the hub would refuse once the schema's refusals are mended, so a client
 * learns it in the same answer: the first URL of each topic parameter naming no topic, and a
 * callback the hub will not call.
 */
function hubChecks(form: Record<string, unknown>, checks: HubChecks, byField: Map<string, Refusal>): void {
  for (const field of form["hub.mode"] === "publish" ? ["hub.url", "hub.topic"] : ["hub.topic"]) {
    if (byField.has(field)) continue;
    const bad = [form[field] ?? []].flat().find((raw) => typeof raw === "string" && !checks.topicOf(raw));
    if (bad !== undefined) byField.set(field, hubRefusal(field, `must be one of ${checks.topics.join(", ")}`, bad));
  }
  const callback = form["hub.callback"];
  if (form["hub.mode"] === "publish" || byField.has("hub.callback") || !CallbackSchema.safeParse(callback).success)
    return;
  const why = checks.callbackRefusal?.(callback as string);
  if (why) byField.set("hub.callback", hubRefusal("hub.callback", why, callback));
}
