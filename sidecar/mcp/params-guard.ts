import { type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server";
import { describeIssue } from "../../src/api/schema-issues.ts";

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

/** Why `message`'s params are invalid for its method, or undefined when they are fine or unchecked. */
export function invalidParams(message: unknown): string | undefined {
  if (message === null || typeof message !== "object" || !("id" in message)) return undefined;
  const method = (message as { method?: unknown }).method;
  if (typeof method !== "string" || !Object.hasOwn(SERVED, method)) return undefined;
  const schema = specTypeSchemas[SERVED[method] as SpecTypeName];
  const { issues } = schema["~standard"].validate(message);
  if (!issues?.length) return undefined;
  return `Invalid params for ${method}: ${issues.map((i) => describeIssue(i, "params")).join("; ")}`;
}
