import { escapeRegex } from "./regex.ts";
import type { CatalogueItem } from "./schema.ts";

/**
 * Detects catalogue entries (technicians, services, areas) named in free text. A match is the
 * entry's name or any alias, case-insensitive, bounded by non-word characters on both sides, so
 * "Tom" matches "Tom showed me" but not "tomorrow", and "Bell" not "Bellevue".
 */
export interface Matcher {
  /** Ids of every entry named in `text`, in catalogue order. */
  detect(text: string): string[];
}

/** Letters and digits in any script count as word characters, so accented names bound correctly. */
const WORD = "\\p{L}\\p{N}_";

/**
 * A name or alias as the matcher below compares it: case, runs of spaces and the apostrophe's form
 * aside. Two terms with one key find the same mentions (catalogues.ts refuses them on two entries).
 */
export const termKey = (term: string) => term.trim().replace(/\s+/g, " ").replace(/’/g, "'").toLowerCase();

export function createMatcher(entries: readonly CatalogueItem[]): Matcher {
  const patterns = entries.map((e) => {
    // Longest first so "Dr. Anika Patel" wins over "Patel" for the same entry (cosmetic; ids dedupe).
    const terms = [e.name, ...e.aliases]
      .map((t) => t.trim())
      .filter(Boolean)
      .sort((a, b) => b.length - a.length)
      // Pasted reviews often carry typographic apostrophes: "children’s" must match "children's".
      .map((t) => escapeRegex(t).replace(/\s+/g, "\\s+").replace(/['’]/g, "['’]"));
    return { id: e.id, re: new RegExp(`(?<![${WORD}])(?:${terms.join("|")})(?![${WORD}])`, "iu") };
  });
  return {
    detect(text) {
      const found: string[] = [];
      for (const p of patterns) if (p.re.test(text)) found.push(p.id);
      return found;
    },
  };
}
