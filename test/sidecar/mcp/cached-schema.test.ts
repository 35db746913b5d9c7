import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cachedJsonSchema, deepFreeze } from "../../../sidecar/mcp/cached-schema.ts";

const TARGET = { target: "draft-2020-12" } as const;

/** A schema that counts how often zod really validates. */
function counted() {
  const seen = { calls: 0 };
  const schema = z.object({ n: z.number(), tags: z.array(z.string()) }).refine(() => {
    seen.calls++;
    return true;
  });
  return { schema, seen };
}

describe("cachedJsonSchema", () => {
  it("converts once and shares one frozen JSON Schema equal to zod's", () => {
    const plain = z.object({ id: z.string().describe("an id"), nested: z.object({ n: z.number() }) });
    const wrapped = cachedJsonSchema(plain);
    const first = wrapped["~standard"].jsonSchema.output(TARGET);
    // zod's, without the `$schema` keyword that some tool validators refuse (Gemini's).
    const { $schema, ...zods } = plain["~standard"].jsonSchema.output(TARGET);
    expect($schema).toBeDefined();
    expect(first).toEqual(zods);
    expect(first).not.toHaveProperty("$schema");
    expect(wrapped["~standard"].jsonSchema.output(TARGET)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, object>).nested)).toBe(true);
    expect(() => {
      (first as Record<string, unknown>).type = "string";
    }).toThrow(TypeError);
    const { $schema: _, ...input } = plain["~standard"].jsonSchema.input(TARGET);
    expect(wrapped["~standard"].jsonSchema.input(TARGET)).toEqual(input);
  });

  it("validates every call like the schema it wraps, frozen values included", async () => {
    const { schema, seen } = counted();
    const wrapped = cachedJsonSchema(schema);
    const value = deepFreeze({ n: 1, tags: ["a"] });
    for (let i = 0; i < 3; i++) expect((await wrapped["~standard"].validate(value)).issues).toBeUndefined();
    expect(seen.calls).toBe(3);
    const bad = await cachedJsonSchema(z.object({ id: z.string() }))["~standard"].validate(deepFreeze({ id: 1 }));
    expect(bad.issues?.[0]?.path).toEqual(["id"]);
  });
});
