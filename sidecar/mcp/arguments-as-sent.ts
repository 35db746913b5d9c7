import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { shownValue } from "../../src/api/echoed-values.ts";
import type { QueryIssue } from "../../src/search/query.ts";
import { invalidQueryBody } from "../../src/search/query-service.ts";

/**
 * Holds every tool to its own input schema, as the arguments were sent, and refuses them with the
 * documented JSON error: the HTTP API's 400 body (`{error, message, issues[]}`, each issue naming
 * the argument, the value received and what is valid) as the text of an `isError` result.
 *
 * The SDK is given a loose schema for each tool (`advertisedInput`), so it lets every object
 * through and its own refusal (plain text) never happens; the tool's strict zod schema is
 * checked here instead. The arguments checked are those of the request body, not the SDK's copy:
 * that copy is made key by key and loses an own key named `__proto__` (which `JSON.parse`
 * creates), which would then reach a strict tool as `{}` and be answered. Each server here is
 * built for one request, so the body's arguments are known (`argumentsAsSent`).
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

  /**
   * `handler`, given the parsed arguments, run only when the arguments as sent pass `schema`.
   * `checked` lists what the handler itself would refuse in arguments `schema` takes, so that a
   * refusal for another argument names those too, first, as the HTTP route names them.
   */
  guard<S extends z.ZodObject, R extends CallToolResult | Promise<CallToolResult>>(
    schema: S,
    handler: (args: z.output<S>) => R,
    checked: (sent: Record<string, unknown>) => QueryIssue[] = () => [],
  ): (args: Record<string, unknown>) => R | CallToolResult {
    return (args) => {
      const sent = this.#sent ?? args;
      const parsed = schema.safeParse(sent);
      if (parsed.success) return handler(parsed.data);
      return invalidArguments([...checked(sent), ...argumentIssues(schema, sent, parsed.error.issues)]);
    };
  }
}

/** An `isError` result whose text is the HTTP API's 400 body for `issues`. */
export function invalidArguments(issues: QueryIssue[]): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(invalidQueryBody(issues)) }], isError: true };
}

/** zod's issues with a tool's arguments in the HTTP API's wording: one per argument, with the value received. */
function argumentIssues(schema: z.ZodObject, sent: Record<string, unknown>, issues: z.core.$ZodIssue[]): QueryIssue[] {
  const known = Object.keys(schema.shape);
  const valid = known.length > 0 ? `valid arguments are ${known.join(", ")}` : "this tool takes no arguments";
  return issues.flatMap((issue): QueryIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: key, value: sent[key], message: `unknown argument; ${valid}` }));
    }
    const path = issue.path.map(String).join(".");
    const value = issue.path.reduce<unknown>(
      (v, k) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined),
      sent,
    );
    const field = (schema.shape as Record<string, z.ZodType>)[String(issue.path[0])];
    const expected = field?.description ?? issue.message;
    const message = value === undefined ? `required: ${expected}` : `${expected}; got ${shownValue(value)}`;
    return [{ path: path || "arguments", value: value ?? null, message }];
  });
}

/**
 * What the SDK is given as a tool's input schema: any object passes it (`guard` checks the tool's
 * strict schema), and it advertises the strict schema's JSON Schema in `tools/list`.
 */
export function advertisedInput(strict: z.ZodObject): z.ZodType<Record<string, unknown>> {
  const {
    $schema: _dialect,
    type: _object,
    ...json
  } = z.toJSONSchema(strict, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
  });
  return z.looseObject({}).meta(json);
}
