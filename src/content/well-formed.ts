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
  // One path, pushed and popped as the walk goes: most files hold nothing to report.
  const at: PropertyKey[] = [];
  const report = (value: string, message: string) =>
    found.push(problem(file, fieldPath(at) || "(file)", message, value, lineOf([...at])));
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      const bad = badCharacter(v, { names: at.length === 1 && NAME_FIELDS.has(String(at[0])) });
      if (bad) report(v, bad.message);
      return;
    }
    if (v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        visit(v[i]);
        at.pop();
      }
      return;
    }
    for (const k of Object.keys(v)) {
      const bad = badCharacter(k);
      if (bad) {
        report(k, `a field name ${bad.message}`);
        continue;
      }
      at.push(k);
      visit((v as Record<string, unknown>)[k]);
      at.pop();
    }
  };
  visit(input);
  return found;
}
