import type { Rng } from "./prng.ts";

/**
 * Phrase templates with `{slot}` holes. A slot is a function, so every hole draws a fresh value
 * (two `{minutes}` in one review can differ) and a missing slot (no technician in this review)
 * simply rules out the templates that need it.
 */
export type Slots = Readonly<Record<string, (() => string) | undefined>>;

const SLOT = /\{(\w+)\}/g;
const needsCache = new Map<string, readonly string[]>();

function needs(template: string): readonly string[] {
  let found = needsCache.get(template);
  if (!found) {
    found = [...template.matchAll(SLOT)].map((m) => m[1] as string);
    needsCache.set(template, found);
  }
  return found;
}

export function canFill(template: string, slots: Slots): boolean {
  return needs(template).every((name) => slots[name] !== undefined);
}

/** Fills every hole and capitalises the first letter, since slots such as `{svc}` start lowercase. */
export function fill(template: string, slots: Slots): string {
  const text = template.replace(SLOT, (_, name: string) => {
    const slot = slots[name];
    if (!slot) throw new Error(`phrase needs slot {${name}} that this review does not have: ${template}`);
    return slot();
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface PhraseOptions {
  /** Templates already used in this review; they are not picked again. */
  used?: Set<string>;
  /** Joins the sentence to the one before, e.g. "Only knock: " or "To be fair, ". */
  prefix?: string;
}

/** A random template that this review can fill, filled; `undefined` when none fits. */
export function phrase(
  rng: Rng,
  templates: readonly string[],
  slots: Slots,
  { used, prefix = "" }: PhraseOptions = {},
): string | undefined {
  const usable = templates.filter((t) => canFill(t, slots) && !used?.has(t));
  if (usable.length === 0) return undefined;
  const template = rng.pick(usable);
  used?.add(template);
  const text = fill(template, slots);
  if (prefix === "") return text;
  // After a comma the sentence continues in lowercase, unless it opens with a name or "I".
  const keepCapital =
    prefix.endsWith(": ") || template.startsWith("{tech") || template.startsWith("{area") || /^I\b/.test(text);
  return prefix + (keepCapital ? text : text.charAt(0).toLowerCase() + text.slice(1));
}
