import { type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server";
import { shownValue } from "../../src/api/echoed-values.ts";
import { MCP_TOOLS } from "../../src/api/openapi-mcp.ts";
import { describeIssue } from "../../src/api/schema-issues.ts";
import { MAX_ID_LENGTH } from "../../src/content/schema.ts";
import { insightsUri } from "./insights.ts";
import { datasetUri, REVIEW_SCHEME } from "./resources.ts";

/**
 * JSON-RPC says malformed params get -32602 Invalid params. In both eras the SDK (2.4, like 1.x)
 * parses a request's params inside the handler and reports a failure as -32603 Internal error with
 * zod's raw JSON as the message, so requests for the methods this server answers are checked
 * first, against the SDK's own spec schemas, and refused with one readable message in both eras.
 */

/** The request methods this server handles, with the spec type each request must satisfy. */
const SERVED: Record<string, SpecTypeName> = {
  initialize: "InitializeRequest",
  ping: "PingRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "resources/list": "ListResourcesRequest",
  "resources/read": "ReadResourceRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/subscribe": "SubscribeRequest",
  "resources/unsubscribe": "UnsubscribeRequest",
  "completion/complete": "CompleteRequest",
};

/**
 * The paginated methods served. Their lists are never cut into pages, so no cursor was ever
 * issued, and the spec's pagination says an invalid cursor should get -32602, not the first page.
 */
const PAGED = new Set(["tools/list", "resources/list", "resources/templates/list"]);

/** Methods the 2026-07-28 revision removed: the SDK answers them 404 and -32601, whatever their params. */
const REMOVED_IN_2026 = new Set(["initialize", "ping", "resources/subscribe", "resources/unsubscribe"]);

/**
 * Why a request names nothing served, for a name or URI the SDK's refusal would quote whole (its
 * "Tool … not found" quotes any name, up to the 64 KiB body): an unknown tool, any prompt (none is
 * served), or a URI longer than any resource's here (a review's id percent-encoded whole included).
 * Each is quoted as an echoed value is cut.
 */
function unserved(method: string, params: Record<string, unknown>, baseUrl: string): string | undefined {
  const { name, uri, ref } = params as {
    name?: unknown;
    uri?: unknown;
    ref?: { type?: unknown; uri?: unknown; name?: unknown };
  };
  if (method === "tools/call" && !(MCP_TOOLS as readonly unknown[]).includes(name)) {
    return `params.name: unknown tool ${shownValue(name)}; tools are ${MCP_TOOLS.join(", ")}`;
  }
  const longest = Math.max(
    datasetUri(baseUrl).length,
    insightsUri(baseUrl).length,
    REVIEW_SCHEME.length + 3 * MAX_ID_LENGTH,
  );
  const tooLong = (where: string, value: unknown) =>
    typeof value === "string" && value.length > longest
      ? `${where}: no resource here has a URI of more than ${longest} characters, got ${shownValue(value)}`
      : undefined;
  if (method === "resources/read") return tooLong("params.uri", uri);
  if (method !== "completion/complete") return undefined;
  if (ref?.type === "ref/prompt") return `params.ref.name: no prompt is served here, got ${shownValue(ref.name)}`;
  return tooLong("params.ref.uri", ref?.uri);
}

/**
 * Why `message`'s params are invalid for its method, or undefined when they are fine or unchecked;
 * `era` is the protocol era the request belongs to, `baseUrl` the public origin its resources are named by.
 */
export function invalidParams(message: unknown, era: "legacy" | "modern", baseUrl: string): string | undefined {
  if (message === null || typeof message !== "object" || !("id" in message)) return undefined;
  const method = (message as { method?: unknown }).method;
  if (typeof method !== "string" || !Object.hasOwn(SERVED, method)) return undefined;
  if (era === "modern" && REMOVED_IN_2026.has(method)) return undefined;
  const schema = specTypeSchemas[SERVED[method] as SpecTypeName];
  const { issues } = schema["~standard"].validate(message);
  if (issues?.length)
    return `Invalid params for ${method}: ${issues.map((i) => describeIssue(i, "params")).join("; ")}`;
  const cursor = (message as { params?: { cursor?: unknown } }).params?.cursor;
  if (PAGED.has(method) && cursor !== undefined) {
    return `Invalid params for ${method}: params.cursor: no cursor is valid here, as every list is sent whole (nextCursor is never set); send the request without one`;
  }
  const params = (message as { params?: Record<string, unknown> }).params ?? {};
  const why = unserved(method, params, baseUrl);
  return why && `Invalid params for ${method}: ${why}`;
}
