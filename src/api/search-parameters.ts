import type { z } from "zod";
import type { AspectRef, Business } from "../content/records.ts";
import { normalizeText, SearchParamsSchema } from "../search/query.ts";
import type { ParameterObject } from "./parameters.ts";

/**
 * The query parameters of `GET /api/reviews/search`, one OpenAPI parameter each (docs/api.md,
 * "OpenAPI"). The types, bounds, descriptions, `additionalProperties: false` and the `sentiment` →
 * `aspect` dependency come from `SearchParamsSchema`, the schema the server parses with; this adds
 * what only the catalogue knows: the service and aspect ids as `enum`s and the technician names as
 * a pattern. The contract tests (test/e2e/api-contract.test.ts) hold the server to exactly this.
 */

export interface SearchVocabulary {
  business: Pick<Business, "technicians" | "services">;
  aspects: readonly AspectRef[];
}

type JsonSchema = Record<string, unknown>;

/** Never valid: a dataset without services (or aspects, or technicians) refuses every value. */
const NOTHING = { not: {} };

/**
 * Characters by their lower case (as `toLowerCase` gives it), built once: `single` for those whose
 * lower case is one character, `several` for those whose lower case is more (İ: i and U+0307).
 */
let lowerCases: { single: Map<string, string[]>; several: Map<string, string[]> } | undefined;
function byLowerCase(): NonNullable<typeof lowerCases> {
  if (!lowerCases) {
    lowerCases = { single: new Map(), several: new Map() };
    // Every letter with a case is below U+1FFFF (the last, Adlam, ends at U+1E943).
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const lower = ch.toLowerCase();
      if (lower === ch) continue;
      const into = [...lower].length > 1 ? lowerCases.several : lowerCases.single;
      into.set(lower, [...(into.get(lower) ?? []), ch]);
    }
  }
  return lowerCases;
}

/** The pattern of one character of a lower-cased name: itself or any character lower-casing to it. */
function letterPattern(c: string): string {
  if (c === " ") return "[.\\s]+";
  const variants = [c, ...(byLowerCase().single.get(c) ?? [])].map(atom);
  return variants.length === 1 ? (variants[0] as string) : `(?:${variants.join("|")})`;
}

/**
 * The pattern of a lower-cased name, character by character; where it holds the lower case of a
 * character that lower-cases to several (i and U+0307), that character is taken there too.
 */
function namePattern(name: string): string {
  const chars = [...name];
  let out = "";
  for (let i = 0; i < chars.length; ) {
    const rest = chars.slice(i).join("");
    const long = [...byLowerCase().several].find(([lower]) => rest.startsWith(lower));
    if (long) {
      const [lower, sources] = long;
      out += `(?:${[...lower].map(letterPattern).join("")}|${sources.map(atom).join("|")})`;
      i += [...lower].length;
    } else {
      out += letterPattern(chars[i] as string);
      i++;
    }
  }
  return out;
}

/** A character as a pattern atom: ASCII letters and digits as themselves, the rest as `\uXXXX` escapes. */
function atom(ch: string): string {
  if (/^[A-Za-z0-9]$/.test(ch)) return ch;
  let out = "";
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * A pattern matching exactly the strings `resolveTechnician` resolves: a technician's id, name or
 * alias in any letter case, with any run of spaces and dots where the name has a space or dot.
 * ECMA-262 syntax with only `\s` and `\uXXXX` escapes, so every JSON Schema validator reads it.
 */
export function technicianPattern(business: SearchVocabulary["business"]): string | undefined {
  const names = new Set<string>();
  for (const t of business.technicians) {
    for (const n of [t.id, t.name, ...t.aliases]) {
      const norm = normalizeText(n)
        .replace(/[.\s]+/g, " ")
        .trim();
      if (norm !== "") names.add(norm);
    }
  }
  if (names.size === 0) return undefined;
  const alternatives = [...names].sort().map(namePattern);
  return `^[.\\s]*(?:${alternatives.join("|")})[.\\s]*$`;
}

/**
 * The JSON Schema of the search query object for one dataset. `toJsonSchema` is the document's
 * converter (output side of the parameter schemas: the numbers the strings stand for).
 */
export function searchParamsJsonSchema(
  vocabulary: SearchVocabulary,
  toJsonSchema: (s: z.ZodType) => JsonSchema,
): JsonSchema {
  const { $schema: _drop, ...schema } = toJsonSchema(SearchParamsSchema) as JsonSchema & {
    properties: Record<string, JsonSchema>;
  };
  const { properties } = schema as { properties: Record<string, JsonSchema> };
  const services = vocabulary.business.services.map((s) => s.id);
  const aspects = vocabulary.aspects.map((a) => a.id);
  const pattern = technicianPattern(vocabulary.business);
  const constrain = (name: string, extra: JsonSchema | undefined, example: unknown) => {
    const { description } = properties[name] as JsonSchema;
    properties[name] = extra
      ? { ...properties[name], ...extra, ...(example === undefined ? {} : { examples: [example] }) }
      : { ...NOTHING, description };
  };
  constrain("mentions_service", services.length > 0 ? { enum: services } : undefined, services[0]);
  constrain("aspect", aspects.length > 0 ? { enum: aspects } : undefined, aspects[0]);
  const technician = vocabulary.business.technicians[0];
  constrain("mentions_technician", pattern ? { pattern } : undefined, technician?.name);
  return schema;
}

/** What the document says beside each parameter's own description. */
const NOTES: Record<string, string> = {
  sentiment: "Requires `aspect`: a `sentiment` without it is refused with 400.",
  offset: `At most ${Number.MAX_SAFE_INTEGER} (2^53-1); a larger value is refused with 400.`,
};

/**
 * The constraints across parameters, which OpenAPI 3.1 parameters cannot state one by one: no
 * parameter beyond those declared, and `sentiment` only with `aspect`. Written into the operation
 * as `x-query-constraints` (a JSON Schema fragment for the query object) and in its description.
 */
export function queryConstraints(schema: JsonSchema): JsonSchema {
  return {
    additionalProperties: false,
    ...(schema.dependentRequired ? { dependentRequired: schema.dependentRequired } : {}),
  };
}

/**
 * One `in: query` parameter per search parameter, in `SEARCH_PARAMS` order, each with its example
 * from `examples` (a valid value by name). Form style, not exploded objects: every generator sends
 * `?rating=5`.
 */
export function searchQueryParameters(
  vocabulary: SearchVocabulary,
  toJsonSchema: (s: z.ZodType) => JsonSchema,
  examples: Record<string, unknown>,
): { parameters: (ParameterObject & { example?: unknown })[]; constraints: JsonSchema } {
  const schema = searchParamsJsonSchema(vocabulary, toJsonSchema) as JsonSchema & {
    properties: Record<string, JsonSchema>;
  };
  const parameters = Object.entries(schema.properties).map(([name, property]) => {
    const { description, examples: _drop, ...rest } = property as JsonSchema & { description?: string };
    const note = NOTES[name];
    return {
      name,
      in: "query" as const,
      required: false,
      description: [description, note].filter(Boolean).join(" "),
      schema: rest,
      ...(examples[name] === undefined ? {} : { example: examples[name] }),
    };
  });
  return { parameters, constraints: queryConstraints(schema) };
}
