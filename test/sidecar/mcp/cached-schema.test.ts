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
    expect(first).toEqual(plain["~standard"].jsonSchema.output(TARGET));
    expect(wrapped["~standard"].jsonSchema.output(TARGET)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, object>).nested)).toBe(true);
    expect(() => {
      (first as Record<string, unknown>).type = "string";
    }).toThrow(TypeError);
    expect(wrapped["~standard"].jsonSchema.input(TARGET)).toEqual(plain["~standard"].jsonSchema.input(TARGET));
  });

  it("still validates like the schema it wraps", async () => {
    const wrapped = cachedJsonSchema(z.object({ id: z.string() }), { validatesOnce: true });
    expect(await wrapped["~standard"].validate({ id: "a", extra: 1 })).toEqual({ value: { id: "a" } });
    const bad = await wrapped["~standard"].validate(deepFreeze({ id: 1 }));
    expect(bad.issues?.[0]?.path).toEqual(["id"]);
  });

  it("with validatesOnce, validates a frozen object that passed only once", async () => {
    const { schema, seen } = counted();
    const wrapped = cachedJsonSchema(schema, { validatesOnce: true });
    const value = deepFreeze({ n: 1, tags: ["a"] });
    for (let i = 0; i < 3; i++) expect((await wrapped["~standard"].validate(value)).issues).toBeUndefined();
    expect(seen.calls).toBe(1);
    // An equal but different object is checked on its own.
    await wrapped["~standard"].validate(deepFreeze({ n: 1, tags: ["a"] }));
    expect(seen.calls).toBe(2);
  });

  it("validates every time what is not frozen, what failed, and without validatesOnce", async () => {
    const { schema, seen } = counted();
    const once = cachedJsonSchema(schema, { validatesOnce: true });
    const mutable = { n: 1, tags: ["a"] as unknown[] };
    expect((await once["~standard"].validate(mutable)).issues).toBeUndefined();
    mutable.tags.push(2);
    expect((await once["~standard"].validate(mutable)).issues?.[0]?.path).toEqual(["tags", 1]);

    const invalid = deepFreeze({ n: "x", tags: [] });
    for (let i = 0; i < 2; i++) expect((await once["~standard"].validate(invalid)).issues).toHaveLength(1);

    const always = cachedJsonSchema(schema);
    const value = deepFreeze({ n: 2, tags: [] });
    const before = seen.calls;
    await always["~standard"].validate(value);
    await always["~standard"].validate(value);
    expect(seen.calls - before).toBe(2);
  });
});
