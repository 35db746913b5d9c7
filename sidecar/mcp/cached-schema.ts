import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";

/**
 * A zod schema whose JSON Schema conversion is done once per process. The SDK converts a tool's
 * input and output schemas when it first needs them on a server instance (`tools/list`, and the
 * output schema on every `tools/call`) and memoises the result on that instance; a server lives
 * for one request here, so without this every search paid a full zod-to-JSON-Schema conversion
 * (about a third of a `search_reviews` call's server time).
 *
 * The wrapper inherits everything else from the schema (validation, zod internals), and only
 * answers `~standard.jsonSchema` from a cache keyed by direction and target.
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
        json = standard.jsonSchema[io](options);
        cache.set(key, json);
      }
      // A copy: the SDK may add `type` or `$schema` to what it receives.
      return structuredClone(json);
    };
  const wrapped = Object.create(schema) as S;
  Object.defineProperty(wrapped, "~standard", {
    value: { ...standard, jsonSchema: { input: convert("input"), output: convert("output") } },
  });
  return wrapped;
}
