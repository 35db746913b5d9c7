import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";

/**
 * A client's view of `/openapi.json`, for contract tests: which requests the document allows and
 * which bodies it declares, decided by ajv (JSON Schema 2020-12, formats on) from the document
 * alone, never from the server's code. Also the request generators, which draw values near the
 * document's edges (enums, bounds, formats, lengths) and plain junk alike; the oracle, not the
 * generator, says which are valid.
 */

export type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  enum?: unknown[];
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
};

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
  example?: unknown;
}

export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<
    string,
    {
      headers?: Record<string, { required?: boolean; description?: string; schema: Schema; example?: unknown }>;
      content?: Record<string, { schema: Schema; example?: unknown }>;
    }
  >;
}

/** RFC 8259 §6: the spelling the document gives numbers in a query string (docs/api.md). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export class DocumentOracle {
  readonly doc: OpenApiDoc;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDoc) {
    this.doc = doc;
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: "https://openapi.test/components", $defs: this.#local(doc.components.schemas) });
  }

  /** `#/components/schemas/X` resolved against the document's components. */
  #local<T>(schema: T): T {
    return JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://openapi.test/components#/$defs/'),
    );
  }

  /** Validation errors of `value` against `schema` (empty when valid). */
  errors(schema: Schema | boolean, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(this.#local(schema));
      this.#compiled.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  /**
   * An exploded form-style query object as a server reads it (OpenAPI 3.1 §4.8.12.4): each name
   * once per property, a repeated name as an array, numbers where the property is a number.
   */
  queryObject(qs: string, schema: Schema): Record<string, unknown> {
    const groups = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(qs)) groups.set(k, [...(groups.get(k) ?? []), v]);
    return Object.fromEntries(
      [...groups].map(([name, values]) => {
        const type = schema.properties?.[name]?.type;
        const one = (v: string) => ((type === "integer" || type === "number") && JSON_NUMBER.test(v) ? Number(v) : v);
        return [name, values.length === 1 ? one(values[0] as string) : values.map(one)];
      }),
    );
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Strings near the edges of one property's schema, and junk. */
export function valueArbitrary(s: Schema): fc.Arbitrary<string> {
  const pool: fc.Arbitrary<string>[] = [
    fc.string({ maxLength: 6 }),
    fc.constantFrom("", " ", "null", "-1", "0", "1e0", "05", "4.0", " 3", "0x1", "+2", "abc", "2026-02-30"),
  ];
  const constants = [...(s.enum ?? []), ...(s.examples ?? [])].map(String);
  if (constants.length > 0) {
    const c = fc.constantFrom(...constants);
    pool.push(
      c,
      c,
      c,
      c.map((v) => v.toUpperCase()),
      c.map((v) => ` ${v}.`),
      c.map((v) => v.replaceAll(" ", "..")),
    );
  }
  if (s.pattern) pool.push(fc.stringMatching(new RegExp(s.pattern)));
  if (s.type === "integer" || s.type === "number") {
    const min = s.minimum ?? -10;
    const max = Math.min(s.maximum ?? 1e6, 1e6);
    pool.push(fc.integer({ min: min - 2, max: max + 2 }).map(String), fc.integer({ min, max }).map(String));
    if (s.maximum !== undefined) pool.push(fc.constantFrom(String(s.maximum), String(s.maximum + 1), `${s.maximum}.5`));
    if (s.type === "number") pool.push(fc.double({ min: min - 1, max: max + 1, noNaN: true }).map(String));
  }
  if (s.format === "date") {
    const ymd = fc.tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
    );
    pool.push(
      ymd.map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
      fc
        .date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
  }
  if (s.maxLength !== undefined) {
    const unit = fc.constantFrom("a", " ", "\u00e9", "\u{1F600}");
    pool.push(fc.string({ unit, minLength: s.maxLength - 2, maxLength: s.maxLength + 2 }));
  }
  return fc.oneof(...pool);
}

const UNKNOWN_NAMES = ["sort", "page", "__proto__", "constructor", "Rating", "", "q", "limit[]"];

/** Query strings for an exploded query object: its properties (sometimes repeated) and strangers. */
export function queryArbitrary(schema: Schema): fc.Arbitrary<string> {
  const properties = Object.entries(schema.properties ?? {});
  const stranger = fc.tuple(fc.constantFrom(...UNKNOWN_NAMES), fc.string({ maxLength: 4 }));
  const entry =
    properties.length === 0
      ? stranger
      : fc.oneof(
          {
            weight: 12,
            arbitrary: fc.oneof(
              ...properties.map(([n, p]) => valueArbitrary(p).map((v) => [n, v] as [string, string])),
            ),
          },
          { weight: 1, arbitrary: stranger },
        );
  return fc
    .array(entry, { maxLength: properties.length === 0 ? 2 : 4 })
    .map((entries) => new URLSearchParams(entries).toString());
}
