/**
 * What the API reference page (src/pages/api/index.astro) shows of an operation's `requestBody`:
 * per media type, its description, and the fields of each form it takes (one per `oneOf` branch,
 * named by the field whose `const` or `enum` tells the branches apart, e.g. `hub.mode=publish`).
 */

interface PropertySchema {
  description?: string;
  const?: unknown;
  enum?: unknown[];
}

interface ObjectSchema {
  description?: string;
  properties?: Record<string, PropertySchema>;
  required?: string[];
  oneOf?: ObjectSchema[];
}

export interface RequestBodyDoc {
  description?: string;
  content?: Record<string, { schema?: ObjectSchema }>;
}

export interface BodyField {
  name: string;
  required: boolean;
  /** The field's description, or the values it takes when it has none. */
  description?: string;
}

export interface BodyForm {
  /** `hub.mode=subscribe or unsubscribe`: the branch this form is; absent for a body of one form. */
  when?: string;
  fields: BodyField[];
}

export interface BodyMediaType {
  mediaType: string;
  description?: string;
  forms: BodyForm[];
}

const valuesOf = (p: PropertySchema): unknown[] | undefined => (p.const !== undefined ? [p.const] : p.enum);

function formOf(schema: ObjectSchema, branched: boolean): BodyForm {
  const properties = Object.entries(schema.properties ?? {});
  const key = branched ? properties.find(([, p]) => valuesOf(p)) : undefined;
  const fields = properties.map(([name, p]) => {
    const values = valuesOf(p);
    const listed = values?.length === 1 ? String(values[0]) : values && `one of ${values.map(String).join(", ")}`;
    const description = p.description ?? listed;
    return { name, required: (schema.required ?? []).includes(name), ...(description ? { description } : {}) };
  });
  return key ? { when: `${key[0]}=${(valuesOf(key[1]) ?? []).map(String).join(" or ")}`, fields } : { fields };
}

/** The media types of a request body with the forms of each; `[]` when the operation takes none. */
export function requestBodyForms(body: RequestBodyDoc | undefined): BodyMediaType[] {
  return Object.entries(body?.content ?? {}).map(([mediaType, { schema }]) => {
    const branches = schema?.oneOf ?? (schema?.properties ? [schema] : []);
    const description = schema?.description ?? body?.description;
    return {
      mediaType,
      ...(description ? { description } : {}),
      forms: branches.map((b) => formOf(b, branches.length > 1)),
    };
  });
}
