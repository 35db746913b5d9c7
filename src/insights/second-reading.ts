import { ContentError } from "../content/errors.ts";
import type { Annotator, ReviewAnnotation } from "./annotate.ts";
import { type LabelledItem, labelledId } from "./evaluate.ts";

/**
 * A second, independent labelling of a labelled set, read as if it were an annotator, so that
 * `evaluate` measures it against the set's gold with the machine's own figures: how far two careful
 * readers agree under "every label right" is the most any reading can be expected to reach
 * (docs/insights-rounds.md, "Two readers").
 */

/**
 * Pairs `second` with `set` item by item: the same texts in the same order, each with the second
 * reader's labels. An item of the set is answered by its place (`labelledId`, the id evaluate reads
 * it under), never by its text: two items alike in rating and text may be labelled apart. Throws a
 * ContentError naming the second file's line that does not match.
 */
export function secondReader(set: readonly LabelledItem[], second: readonly LabelledItem[], file: string): Annotator {
  const byItem = new Map<string, LabelledItem>();
  const expected = `expected ${set.length} items, one for each of the set's`;
  second.forEach((item, i) => {
    const want = set[i];
    if (want === undefined) throw new ContentError([`${file}:${item.line}: ${expected}, got an item ${i + 1}`]);
    if (item.text !== want.text || item.rating !== want.rating)
      throw new ContentError([
        `${file}:${item.line}: expected the set's item ${i + 1} (line ${want.line}) with its rating and text, got a different one`,
      ]);
    byItem.set(labelledId(want), item);
  });
  const missing = set[second.length];
  if (missing !== undefined) {
    const last = second.at(-1);
    const lacks = `none for the set's item ${second.length + 1} (line ${missing.line})`;
    throw new ContentError([
      last === undefined
        ? `${file}: ${expected}, got none`
        : `${file}:${last.line}: ${expected}, got ${second.length}: ${lacks} after this line`,
    ]);
  }
  return {
    annotate(review): ReviewAnnotation {
      const item = byItem.get(review.id);
      // Only the set's own items are read (evaluate's `annotateLabelled`); anything else is a bug.
      if (item === undefined) throw new Error(`the second reading has no item for ${review.id}`);
      const aspects = [...item.gold]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([id, sentiment]) => ({
          id,
          sentiment,
          score: sentiment === "positive" ? 1 : sentiment === "negative" ? -1 : 0,
          source: "editor" as const,
        }));
      // A reader quotes nothing: only the aspects are compared.
      return {
        aspects,
        scores: new Map(),
        mentions: [],
        entityAspects: new Map(),
        clauses: [],
        titleRead: false,
        unreadTitle: [],
        readings: [],
        sentences: 0,
        verdicts: new Map(),
        dropped: new Map(),
        vetoed: [],
      };
    },
  };
}
