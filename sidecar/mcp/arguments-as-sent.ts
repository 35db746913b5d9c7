import type { CallToolResult, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { describeIssue } from "../../src/api/schema-issues.ts";

/**
 * Holds every tool to its input schema as the arguments were sent, not as the SDK copied them.
 *
 * The SDK parses a `tools/call` request with zod before a tool sees it, and that parse copies
 * `arguments` key by key: an own key named `__proto__` (which `JSON.parse` creates) is lost in the
 * copy, so `{"__proto__": 1}` reached a strict tool as `{}` and was answered, while any other
 * unknown name is refused. Each server here is built for one request, so the arguments of that
 * request's body are known (`argumentsAsSent`); every tool handler is wrapped with `guard`, which
 * validates them against the tool's own input schema first and refuses them with the SDK's own
 * wording (`Input validation error: Invalid arguments for tool <name>: <issues>`).
 *
 * A tool with a loose schema (`search_reviews`) passes here and reads the arguments as sent itself,
 * so its refusal keeps the HTTP API's wording.
 */
export class ArgumentsAsSent {
  readonly #sent: Record<string, unknown> | undefined;

  constructor(sent: unknown) {
    this.#sent =
      typeof sent === "object" && sent !== null && !Array.isArray(sent) ? (sent as Record<string, unknown>) : undefined;
  }

  /** The arguments object as parsed from the request body, when it was one. */
  get value(): Record<string, unknown> | undefined {
    return this.#sent;
  }

  /** `handler`, run only when the arguments as sent pass `schema`. */
  guard<A extends unknown[], R extends CallToolResult | Promise<CallToolResult>>(
    name: string,
    schema: StandardSchemaWithJSON,
    handler: (...args: A) => R,
  ): (...args: A) => R | CallToolResult {
    return (...args: A) => this.#refusal(name, schema) ?? handler(...args);
  }

  #refusal(name: string, schema: StandardSchemaWithJSON): CallToolResult | undefined {
    // Only a key the SDK's copy drops can make the two differ; anything else the SDK has checked.
    if (!this.#sent || !Object.hasOwn(this.#sent, "__proto__")) return undefined;
    const result = schema["~standard"].validate(this.#sent);
    if (result instanceof Promise) throw new TypeError(`tool ${name}: an input schema must validate synchronously`);
    if (!result.issues?.length) return undefined;
    const issues = result.issues.map((issue) => describeIssue(issue));
    const text = `Input validation error: Invalid arguments for tool ${name}: ${issues.join(", ")}`;
    return { content: [{ type: "text", text }], isError: true };
  }
}
