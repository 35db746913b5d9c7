import type { IncomingMessage, ServerResponse } from "node:http";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  type InboundClassificationOutcome,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import type { SnapshotStore } from "../build/snapshot.ts";
import type { ResponseCache } from "../response-cache.ts";
import { type CachedHit, peekSearch, peekSince } from "./cached-results.ts";
import { hasPassed } from "./cached-schema.ts";
import { SESSION_HEADER } from "./legacy-sessions.ts";
import { SERVER_INFO } from "./server.ts";
import { SearchResultSchema, SinceResultSchema } from "./tools.ts";

/**
 * A `tools/call` of `search_reviews` or `get_reviews_since` whose answer is already in the
 * response cache, answered in front of the SDK with bytes made once per cache entry.
 *
 * Through the SDK such a call cost 4–5 ms of server CPU against 1–2 ms for the same search over
 * HTTP: a fresh `McpServer` and transport, a web `Request` and `Response`, the request and result
 * schemas parsed, the answer serialised again (`Response.json` of a result twice the body), and
 * the garbage of all of it. Here it costs a cache lookup and one write.
 *
 * Only one exact request shape is answered; anything else, and anything in doubt, returns false
 * and goes to the SDK unchanged:
 * - one JSON-RPC request object (`jsonrpc`, `id`, `method`, `params` and nothing else), method
 *   `tools/call`, an id that is a string or a safe integer, `params` with `name` (one of the two
 *   tools), `arguments` (an object) and, in 2026-07-28 only, the `_meta` envelope with nothing but
 *   its three standard keys;
 * - the era as the SDK's own classifier (`classifyInboundRequest`) sees it (for a message without
 *   `_meta` decided here, by the classifier's rule; see `eraOf`), and then:
 *   2025 (no envelope): a `Mcp-Session-Id` that our session rules accept, an `Accept` naming both
 *   JSON and event streams, a JSON `Content-Type`, and no or a supported `Mcp-Protocol-Version`,
 *   which is what the SDK's transport checks;
 *   2026-07-28: `Mcp-Protocol-Version: 2026-07-28`, `Mcp-Method: tools/call` and `Mcp-Name` equal
 *   to the tool's name, byte for byte (no padding, no Base64 form), and no `Mcp-Param-*` header;
 * - arguments that are valid and whose answer the cache holds complete, with a result object that
 *   has already passed the tool's output schema in full (cached-schema.ts), so the SDK would not
 *   check it again either. `get_reviews_since` takes `{date}` alone (the SDK refuses
 *   other keys).
 *
 * The answer is the SDK's, byte for byte: `{"result":…,"jsonrpc":"2.0","id":…}` with the text
 * block and `structuredContent` of the cached body, and in 2026-07-28 the `resultType` and the
 * server's identity the SDK adds, as `application/json` with its `Content-Length`.
 * test/sidecar/mcp/fast-call.test.ts compares status, headers and body with the SDK's answer
 * over random arguments, ids, header variants and both eras.
 */

export interface FastCallDeps {
  store: SnapshotStore;
  cache: ResponseCache;
  /** Whether a 2025-era session id is usable: signed, unexpired, unrevoked (LegacySessions' rule). */
  sessionUsable(id: string): Promise<boolean>;
}

type Era = "legacy" | "modern";

/** The tools answered here, and the output schema whose check a cached value must have passed. */
const TOOLS = {
  search_reviews: SearchResultSchema,
  get_reviews_since: SinceResultSchema,
} as const;

const MODERN_VERSION = "2026-07-28";
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
/** The keys each checked object may have, made once: the checks run on every `/mcp` POST. */
const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const LEGACY_PARAMS_KEYS = new Set(["name", "arguments"]);
const MODERN_PARAMS_KEYS = new Set(["name", "arguments", "_meta"]);
const SINCE_ARGUMENT_KEYS = new Set(["date"]);

const HEAD = Buffer.from('{"result":');
/** Where the eras' results differ: 2026-07-28 adds `resultType` and the server's identity. */
const TAIL: Record<Era, Buffer> = {
  legacy: Buffer.from("}"),
  modern: Buffer.from(`,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: SERVER_INFO })}}`),
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/** Whether `object` has no own keys but `allowed`. */
function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(object)) if (!allowed.has(key)) return false;
  return true;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * The era of a request the fast path may answer, or undefined. A message of the shape checked in
 * `fastToolCall` is a JSON-RPC request to the SDK; without `_meta` in its params it carries no
 * envelope claim, and with no `Mcp-Protocol-Version` or one of the 2025-era versions (none of them
 * modern) `classifyInboundRequest` calls it legacy ("no-claim") without a look at anything else,
 * so that case is decided here without it (its zod parse of the whole message cost about a tenth
 * of the call). Anything with `_meta` goes through the classifier itself.
 */
function eraOf(req: IncomingMessage, body: Record<string, unknown>, params: Record<string, unknown>): Era | undefined {
  const version = header(req, "mcp-protocol-version");
  if (!Object.hasOwn(params, "_meta")) {
    if (!onlyKeys(params, LEGACY_PARAMS_KEYS)) return undefined;
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
    const accept = header(req, "accept");
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
    if (!isJsonContentType(header(req, "content-type"))) return undefined;
    return "legacy";
  }
  if (version !== MODERN_VERSION || header(req, "mcp-method") !== "tools/call") return undefined;
  if (header(req, "mcp-name") !== params.name) return undefined;
  if (Object.keys(req.headers).some((name) => name.startsWith("mcp-param-"))) return undefined;
  if (!onlyKeys(params, MODERN_PARAMS_KEYS)) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || !onlyKeys(meta, ENVELOPE_KEYS)) return undefined;
  return envelopeAccepted(meta, () =>
    classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: version,
      mcpMethodHeader: "tools/call",
      mcpNameHeader: params.name as string,
      body,
    }),
  )
    ? "modern"
    : undefined;
}

/**
 * The classifier's verdict on 2026-07-28 `tools/call` requests, by their envelope. With the
 * headers fixed as `eraOf` requires them and a message of the checked shape (a JSON-RPC request
 * whose params the classifier does not look into but for `_meta`), its answer depends on the
 * envelope alone, which a client sends the same on every call; its zod parse of the envelope and
 * the whole message cost about half of such a call. Bounded: 256 envelopes of at most 1 KiB of
 * JSON, forgotten all at once when full; a larger one is classified every time.
 */
const envelopeVerdicts = new Map<string, boolean>();

function envelopeAccepted(meta: Record<string, unknown>, classify: () => InboundClassificationOutcome): boolean {
  const key = JSON.stringify(meta);
  const known = envelopeVerdicts.get(key);
  if (known !== undefined) return known;
  const route = classify();
  const ok =
    route.kind === "modern" && route.messageKind === "request" && route.classification.revision === MODERN_VERSION;
  if (key.length <= 1024) {
    if (envelopeVerdicts.size >= 256) envelopeVerdicts.clear();
    envelopeVerdicts.set(key, ok);
  }
  return ok;
}

/** The complete cached answer for the tool's arguments, when its value has passed the output schema. */
function cachedAnswer(deps: FastCallDeps, name: keyof typeof TOOLS, args: Record<string, unknown>) {
  const snapshot = deps.store.current;
  let found: CachedHit | undefined;
  if (name === "search_reviews") {
    found = peekSearch(deps, snapshot, args);
  } else {
    if (!onlyKeys(args, SINCE_ARGUMENT_KEYS) || typeof args.date !== "string") return undefined;
    found = peekSince(deps, snapshot, args.date);
  }
  return found && hasPassed(TOOLS[name], found.entry.value.data) ? found : undefined;
}

/** The start of the result's JSON, made once per entry and kept in it while it fits the cache's bound. */
function resultStart(cache: ResponseCache, { key, entry }: CachedHit): Buffer {
  if (entry.rpc) return entry.rpc;
  const text = entry.body.toString("utf8");
  const rpc = Buffer.from(`{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}`);
  cache.grow(key, { ...entry, rpc });
  return rpc;
}

/**
 * Answers `body` when it is exactly a cached `tools/call` (see above) and returns true; returns
 * false, having written nothing, for everything the SDK must answer.
 */
export function fastToolCall(deps: FastCallDeps) {
  return async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<boolean> => {
    if (!isPlainObject(body) || body.method !== "tools/call" || body.jsonrpc !== "2.0") return false;
    if (!onlyKeys(body, MESSAGE_KEYS)) return false;
    const { id, params } = body;
    if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return false;
    if (!isPlainObject(params) || !isPlainObject(params.arguments)) return false;
    const name = params.name;
    if (typeof name !== "string" || !Object.hasOwn(TOOLS, name)) return false;
    const era = eraOf(req, body, params);
    if (era === undefined) return false;
    const hit = cachedAnswer(deps, name as keyof typeof TOOLS, params.arguments);
    if (hit === undefined) return false;
    if (era === "legacy") {
      const session = header(req, SESSION_HEADER);
      if (!session || !(await deps.sessionUsable(session))) return false;
    }
    // Written in pieces, corked into one write: no copy of the answer is made per call.
    const start = resultStart(deps.cache, hit);
    const end = Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
    const length = HEAD.length + start.length + TAIL[era].length + end.length;
    res.writeHead(200, { "content-type": "application/json", "content-length": length });
    res.cork();
    res.write(HEAD);
    res.write(start);
    res.write(TAIL[era]);
    res.end(end);
    res.uncork();
    return true;
  };
}
