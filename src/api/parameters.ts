import { z } from "zod";

/**
 * OpenAPI parameter objects generated from zod objects, so a parameter's name, type, requiredness
 * and description are written once: the search parameters come from the schema the query parser
 * validates with (search-parameters.ts), and the path parameter from the schema below.
 */

/** The path of `GET /api/reviews/since/{date}`; the service checks it is a real calendar day. */
export const SincePathSchema = z.object({
  date: z.string().meta({ format: "date" }).describe("YYYY-MM-DD"),
});

export interface ParameterObject {
  name: string;
  in: "query" | "header" | "path";
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

/**
 * One parameter object per property of `schema`, in declaration order. A property is required when
 * the zod schema requires it (path parameters always are). `toJsonSchema` is the caller's converter,
 * so the document's JSON Schema options apply here too.
 */
export function parametersOf(
  schema: z.ZodObject,
  location: ParameterObject["in"],
  toJsonSchema: (s: z.ZodType) => Record<string, unknown>,
): ParameterObject[] {
  const json = toJsonSchema(schema) as {
    properties: Record<string, { description?: string } & Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === "path" || (json.required ?? []).includes(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}
