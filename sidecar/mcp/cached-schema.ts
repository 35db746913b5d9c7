import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";

/**
 * A zod schema whose JSON Schema conversion is done once per process. The SDK converts a tool's
 * input and output schemas when it first needs them on a server instance (`tools/list`, the
 * output schema on every `tools/call`, and the input schema of every 2026-07-28 `tools/call`) and
 * memoises the result on that instance; a server lives for one request here, so without this
 * every search paid a full zod-to-JSON-Schema conversion (about a third of a `search_reviews`
 * call's server time).
 *
 * The conversion is deep-frozen and shared rather than copied per call: the SDK only reads it and
 * spreads it when it adds `type` (`standardSchemaToJsonSchema`), and a write anywhere would throw
 * instead of corrupting the next request's schema. Copying the search result's schema (every
 * review field) cost about as much as the search itself.
 *
 * The conversion is made portable (`portable`): MCP clients that check tool schemas strictly
 * (Inspector `--strict`, some model vendors) refuse a `type` array, which zod emits for nullable
 * fields, and Gemini's function declarations refuse a `$schema` keyword, which is left out (MCP
 * tool schemas are 2020-12 unless they say otherwise).
 */
export function cachedJsonSchema<S extends StandardSchemaWithJSON>(schema: S): S {
  const standard = schema["~standard"];
  const cache = new Map<string, Record<string, unknown>>();
  type Options = Parameters<typeof standard.jsonSchema.input>[0];
  const convert =
    (io: "input" | "output") =>
    (options: Options): Record<string, unknown> => {
      const key = `${io} ${options.target}`;
      let json = cache.get(key);
      if (json === undefined) {
        const { $schema: _dialect, ...converted } = standard.jsonSchema[io](options);
        json = deepFreeze(portable(converted));
        cache.set(key, json);
      }
      return json;
    };
  const wrapped = Object.create(schema) as S;
  Object.defineProperty(wrapped, "~standard", {
    value: { ...standard, jsonSchema: { input: convert("input"), output: convert("output") } },
  });
  return wrapped;
}

/** Freezes a JSON value and everything in it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

/**
 * Rewrites every `type: [A, B]` as `anyOf: [{type: A}, {type: B}]`, keeping the node's other
 * keywords: the same set of values (a keyword for numbers, say, ignores the null branch), written
 * with one JSON type per schema.
 */
export function portable<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(portable) as T;
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "type" && Array.isArray(v)) out.anyOf = v.map((t) => ({ type: t }));
    else out[k] = portable(v);
  }
  return out as T;
}
