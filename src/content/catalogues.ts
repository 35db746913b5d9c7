import { problem } from "./errors.ts";
import { fieldLine } from "./field-lines.ts";
import { termKey } from "./mentions.ts";
import type { BusinessFile } from "./schema.ts";

/**
 * The rules of business.yaml's catalogues (technicians, services, service_areas) that the schema
 * cannot express: each id once, and each name or alias naming one entry only. Mention detection
 * (mentions.ts) credits a review to every entry whose name or alias it finds, so an alias two
 * practitioners share would credit each review that says it to both.
 */
export function catalogueProblems(file: string, b: BusinessFile, text: string): string[] {
  const found: string[] = [];
  for (const field of ["technicians", "services", "service_areas"] as const) {
    const ids = new Set<string>();
    /** Each name or alias as matching reads it, with the entry it first named. */
    const terms = new Map<string, { index: number; id: string }>();
    b[field].forEach((entry, i) => {
      if (ids.has(entry.id)) {
        const at = [field, i, "id"];
        found.push(problem(file, `${field}[${i}].id`, "duplicate id in this catalogue", entry.id, fieldLine(text, at)));
      }
      ids.add(entry.id);
      const own = new Set<string>();
      [entry.name, ...entry.aliases].forEach((term, n) => {
        const key = termKey(term);
        const first = terms.get(key);
        if (first && first.index !== i && !own.has(key)) {
          const at = n === 0 ? [field, i, "name"] : [field, i, "aliases", n - 1];
          const where = n === 0 ? `${field}[${i}].name` : `${field}[${i}].aliases[${n - 1}]`;
          found.push(
            problem(
              file,
              where,
              `also names ${field}[${first.index}] (${first.id}), and a review that says it would be credited to both — keep it on one entry`,
              term,
              fieldLine(text, at),
            ),
          );
        }
        own.add(key);
        if (!first) terms.set(key, { index: i, id: entry.id });
      });
    });
  }
  return found;
}
