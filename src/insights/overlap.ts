/**
 * Overlap between a labelled set and the text a model learned from. A held-out sentence that is a
 * rewording of a training sentence ("the bill was twice the quote" beside "my bill came to twice the
 * quote") measures memory, not reading, so `npm run eval:insights` reports held-out figures after
 * dropping every item within `DEDUP_JACCARD` of something training read.
 */

/** Word-set Jaccard similarity at or above which a held-out item counts as a near-duplicate. */
export const DEDUP_JACCARD = 0.5;

/** The distinct words of a text: lowercase letters and digits, apostrophes dropped ("didn't" = "didnt"). */
export function wordSet(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/['’]/g, "")
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

/** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

export interface Nearest {
  similarity: number;
  /** The training text it is nearest to (the first of equals). */
  text: string;
}

export interface OverlapIndex {
  /** How many texts the index holds. */
  size: number;
  /** The most similar text of the index, or undefined when none shares a word. */
  nearest(text: string): Nearest | undefined;
}

/**
 * An index of `texts` (training items; a multi-sentence item is also indexed sentence by sentence,
 * so a held-out sentence copied out of a training review is found). Words point at the texts that
 * hold them, so a query compares only with texts it shares a word with.
 */
export function overlapIndex(texts: Iterable<string>): OverlapIndex {
  const units: { text: string; words: Set<string> }[] = [];
  const byWord = new Map<string, number[]>();
  const add = (text: string) => {
    const words = wordSet(text);
    if (words.size === 0) return;
    const id = units.length;
    units.push({ text, words });
    for (const w of words) {
      const list = byWord.get(w);
      if (list) list.push(id);
      else byWord.set(w, [id]);
    }
  };
  for (const text of texts) {
    add(text);
    const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== "");
    if (sentences.length > 1) for (const s of sentences) add(s);
  }
  return {
    size: units.length,
    nearest(text) {
      const words = wordSet(text);
      const shared = new Map<number, number>();
      for (const w of words) for (const id of byWord.get(w) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
      let best: Nearest | undefined;
      for (const [id, n] of shared) {
        const unit = units[id] as { text: string; words: Set<string> };
        const similarity = n / (words.size + unit.words.size - n);
        if (!best || similarity > best.similarity) best = { similarity, text: unit.text };
      }
      return best;
    },
  };
}

export interface Deduplicated<T> {
  kept: T[];
  /** Each dropped item with the training text it is nearest to. */
  dropped: { item: T; nearest: Nearest }[];
}

/** Splits `items` into those below `threshold` of every text of `index` and those at or above it. */
export function deduplicate<T extends { text: string }>(
  items: readonly T[],
  index: OverlapIndex,
  threshold = DEDUP_JACCARD,
): Deduplicated<T> {
  const kept: T[] = [];
  const dropped: Deduplicated<T>["dropped"] = [];
  for (const item of items) {
    const nearest = index.nearest(item.text);
    if (nearest && nearest.similarity >= threshold) dropped.push({ item, nearest });
    else kept.push(item);
  }
  return { kept, dropped };
}
