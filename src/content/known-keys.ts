import type { z } from "zod";

/**
 * The fields a schema allows at a place in a file, read from the schema itself so a field added
 * to it (by any change) is suggested without a list to keep in step; and the nearest of them to a
 * misspelt one.
 */

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; shape?: object };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Optional, default, pipe and similar wrappers removed. */
function unwrap(schema: z.ZodType): z.ZodType {
  let cur = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(cur);
    const next = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!next) return cur;
    cur = next;
  }
  return cur;
}

/** The schema of the value at `path`, wrappers and all; undefined when the schema has no such place. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let cur: z.ZodType | undefined = schema;
  for (const key of path) {
    const def = defOf(unwrap(cur));
    if (typeof key === "number") cur = def.type === "array" ? def.element : undefined;
    else cur = def.type === "object" ? (def.shape as Record<string, z.ZodType>)[String(key)] : undefined;
    if (!cur) return undefined;
  }
  return cur;
}

/** The keys of the object `schema` describes at `path`; empty when there is none. */
export function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(schema, path);
  const def = at && defOf(unwrap(at));
  return def?.type === "object" ? Object.keys(def.shape as object) : [];
}

/** Whether the field at `path` may be left out (optional or with a default). */
export function mayBeLeftOut(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  const at = schemaAt(schema, path);
  const type = at && defOf(at).type;
  return type === "optional" || type === "default";
}

/**
 * Edit distance with adjacent swaps counted as one edit (`auhtor` is one from `author`),
 * ignoring case: what a typing slip does to a word.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 0; j <= t.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= s.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[s.length] as number[])[t.length] as number;
}

/** The known key closest to `key`, if it is close enough to be a slip: one edit per three letters, at most three. */
export function nearest(key: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(key, k);
    if (distance <= limit && (!best || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}
