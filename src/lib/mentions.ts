import type { CatalogueItem } from "./content-schema.ts";

/**
 * Detects catalogue entries (technicians, services, areas) named in free text. A match is the
 * entry's name or any alias, case-insensitive, bounded by non-word characters on both sides, so
 * "Tom" matches "Tom showed me" but not "tomorrow", and "Bell" not "Bellevue".
 */
export interface Matcher {
  /** Ids of every entry named in `text`, in catalogue order. */
  detect(text: string): string[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Letters and digits in any script count as word characters, so accented names bound correctly. */
const WORD = "\\p{L}\\p{N}_";

export function createMatcher(entries: readonly CatalogueItem[]): Matcher {
  const patterns = entries.map((e) => {
    // Longest first so "Dr. Anika Patel" wins over "Patel" for the same entry (cosmetic; ids dedupe).
    const terms = [e.name, ...e.aliases]
      .map((t) => t.trim())
      .filter(Boolean)
      .sort((a, b) => b.length - a.length)
      .map((t) => escapeRegex(t).replace(/\s+/g, "\\s+"));
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

/** Explicit ids first (in the editor's order), then detected ones not already listed. */
export function mergeIds(explicit: readonly string[], detected: readonly string[]): string[] {
  const out = [...new Set(explicit)];
  for (const id of detected) if (!out.includes(id)) out.push(id);
  return out;
}
