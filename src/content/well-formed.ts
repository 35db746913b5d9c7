import { badCharacter } from "./characters.ts";
import { fieldPath, problem } from "./errors.ts";
import { fieldLine } from "./field-lines.ts";

/**
 * Every string of a parsed content file, keys included, checked for the characters no field may
 * hold (characters.ts). The file's raw text is checked before it is read (yaml.ts); this finds what
 * a double-quoted YAML escape (`"\e[31m"`, `"\udfff"`, `"\u202e"`) puts into a value.
 */

/** Fields whose values are names a reader compares by eye: no invisible characters either. */
const NAME_FIELDS = new Set(["author", "title"]);

export function characterProblems(file: string, input: unknown, text?: string): string[] {
  const found: string[] = [];
  const lineOf = (at: readonly PropertyKey[]) => (text === undefined ? undefined : fieldLine(text, at));
  const visit = (v: unknown, at: PropertyKey[]): void => {
    if (typeof v === "string") {
      const bad = badCharacter(v, { names: at.length === 1 && NAME_FIELDS.has(String(at[0])) });
      if (bad) found.push(problem(file, fieldPath(at) || "(file)", bad.message, v, lineOf(at)));
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        visit(x, [...at, i]);
      });
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      const bad = badCharacter(k);
      if (bad) found.push(problem(file, fieldPath(at) || "(file)", `a field name ${bad.message}`, k, lineOf(at)));
      else visit(x, [...at, k]);
    }
  };
  visit(input, []);
  return found;
}
