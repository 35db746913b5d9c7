import { EDITOR_SCORE } from "../content/dataset.ts";
import type { ReviewAspect, Sentiment } from "../content/records.ts";
import type { ReviewCounted } from "./counted.ts";
import { round } from "./numbers.ts";
import type { AspectMention } from "./readings.ts";
import type { ReviewSummary } from "./review-summary.ts";

/**
 * An editor's `aspects:` map in a review file is the reading of that review: it replaces the
 * machine's whole reading, so every figure, search filter and quote follows it.
 *
 * - Each labelled aspect keeps the machine's score when the machine read the same polarity (the
 *   editor confirmed it), else takes the editor's polarity at `EDITOR_SCORE`.
 * - Aspects the editor did not label are dropped, as are their clauses.
 * - A clause the machine read for a labelled aspect stays a mention (mentions count clauses). It may
 *   be quoted only where the machine could quote it (rules, models and rating agree: quotes.ts) and
 *   it leans the editor's way: the label confirms the review's reading, not what one sentence says.
 */

/**
 * `summary` with `labels` (the record's `source: "editor"` entries) in place of the machine's
 * reading; `summary` itself when there are none. `indexOf` maps aspect ids to their index;
 * `recount` gives the labelled reading's counted sentences (the review's `CountedSentences`).
 */
export function withEditorLabels(
  summary: ReviewSummary,
  labels: readonly ReviewAspect[],
  indexOf: ReadonlyMap<string, number>,
  recount: (aspects: readonly ReviewAspect[], mentions: readonly AspectMention[]) => ReviewCounted,
): ReviewSummary {
  if (labels.length === 0) return summary;
  const machine = new Map(summary.aspects.map((a) => [a.id, a]));
  const scores = new Map<number, number>();
  const aspects = labels.map((label): ReviewAspect => {
    const read = machine.get(label.id);
    const agreed = read && read.sentiment === label.sentiment;
    const raw = agreed
      ? (summary.scores.get(indexOf.get(label.id) as number) as number)
      : EDITOR_SCORE[label.sentiment];
    scores.set(indexOf.get(label.id) as number, raw);
    const score = round(raw);
    return { id: label.id, sentiment: label.sentiment, score, source: "editor" };
  });
  const sign = (s: Sentiment) => (s === "positive" ? 1 : s === "negative" ? -1 : 0);
  const want = new Map(labels.map((l) => [indexOf.get(l.id) as number, sign(l.sentiment)]));
  const mentions = summary.mentions
    .filter((m) => want.has(m.aspect))
    .map((m) => ({ ...m, confident: m.confident && Math.sign(m.score) === want.get(m.aspect) && m.score !== 0 }));
  const entityAspects = new Map(
    [...summary.entityAspects].map(([entity, set]) => [entity, new Set([...set].filter((a) => want.has(a)))]),
  );
  return { ...summary, aspects, scores, mentions, entityAspects, counted: recount(aspects, mentions) };
}
