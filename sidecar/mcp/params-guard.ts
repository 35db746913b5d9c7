import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * JSON-RPC says malformed params get -32602 Invalid params. The SDK (1.32) parses a request's
 * params inside the handler and reports a failure as -32603 Internal error with zod's raw JSON as
 * the message, so requests for the methods this server answers are checked here first.
 */

type RequestSchema = { safeParse(v: unknown): { success: boolean; error?: { issues: ZodLikeIssue[] } } };
interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
}

/** The request methods this server handles, with the SDK schema each request must satisfy. */
const SERVED: Record<string, RequestSchema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
};

/** Why `message`'s params are invalid for its method, or undefined when they are fine or unchecked. */
export function invalidParams(message: { method: string; params?: unknown }): string | undefined {
  const schema = Object.hasOwn(SERVED, message.method) ? SERVED[message.method] : undefined;
  const result = schema?.safeParse(message);
  if (!result || result.success) return undefined;
  const issues = (result.error?.issues ?? []).map((i) => `${i.path.map(String).join(".") || "params"}: ${i.message}`);
  return `Invalid params for ${message.method}: ${issues.join("; ")}`;
}

/**
 * Wraps the transport's `onmessage` (call after `server.connect(transport)`, which installs it) so a
 * request with malformed params is answered with -32602 on the same transport and never reaches
 * the SDK's handler.
 */
export function guardParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("guardParams: connect the server to the transport first");
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (problem === undefined || !isJSONRPCRequest(message)) {
      deliver(message, extra);
      return;
    }
    void transport
      .send({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: problem } })
      .catch((err: unknown) => transport.onerror?.(err as Error));
  };
}
