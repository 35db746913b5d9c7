import type { ReviewAspect, Sentiment } from "../content/records.ts";
import type { Annotator, ReviewInput } from "./annotate.ts";
import type { AspectDefinition } from "./content-schema.ts";
import { polarity, round } from "./numbers.ts";
import type { AspectReading } from "./readings.ts";

/**
 * The machine's reading of one review in words an editor can check in seconds (`npm run check --
 * --explain <file>`, `npm run review:new -- --text …`): each sentence, the aspects it names, the
 * polarity read for each and the words that decided it; then the review's reading, which sentences
 * could be quoted, and the `aspects:` line that confirms it. With the file's own labels it says
 * where the editor and the machine differ.
 */

const signed = (x: number) => (x > 0 ? `+${x.toFixed(2)}` : x.toFixed(2));

/** Why a clause reads as it does, and, where the rules and the learned model differ, which won. */
function reason(r: AspectReading): string {
  const words = r.words.join(" ");
  const m = r.model;
  const kind = m?.explicit ? "explicit words" : "weaker evidence";
  if (r.faint) {
    const what =
      r.faint === "put up with"
        ? "a drawback the sentence puts up with"
        : words
          ? `rated adequate, no more (${words})`
          : "a shrug, or a price or a way of paying told bare, no opinion";
    return `${what}: neutral, and neither the model nor the rating gives it a side`;
  }
  if (r.learned === "overruled" && m?.ironic)
    return `the learned model won: in a review of one or two stars it read ${m.side} at p ${m.p} with the rating and the rest of the review, at least the ${m.need} needed to overrule praise there without the clause's words alone (sarcasm, or praise taken back; ${words})`;
  if (r.learned === "overruled" && m)
    return `the learned model won: it read ${m.side} at p ${m.p}${m.wordsOnly === undefined ? "" : ` (${m.wordsOnly} from the clause's words alone)`}, at least the ${m.need} needed to overrule the rules' ${kind} (${words})`;
  if (r.disputed && m && m.wordsOnly !== undefined && m.p >= m.need)
    return `the rules won: evidence ${words}; the learned model read ${m.side} at p ${m.p} with the rating and the rest of the review, but at p ${m.wordsOnly} from the clause's words alone, under the ${m.need} needed to overrule ${kind}`;
  if (r.disputed && m)
    return `the rules won: evidence ${words}; the learned model read ${m.side} at p ${m.p}, under the ${m.need} needed to overrule ${kind}`;
  if (r.learned === "found")
    return `found by the learned model (no term of the aspect)${m ? `; it read ${m.side} at p ${m.p}` : ""}`;
  if (r.learned === "filled" && m)
    return `no opinion word the rules know; the learned model read ${m.side} at p ${m.p} (${m.need} needed)`;
  if (r.inferred && r.shape)
    return `a deed done in full after the condition the review told (${words}): a good result, weaker than an opinion word`;
  if (r.inferred) return "no opinion word; read as the opposite of the other half of the sentence";
  if (r.words.length > 0) return `evidence: ${words}${r.shape ? " (a construction, weaker than an opinion word)" : ""}`;
  return "named, no opinion word";
}

export function explainReview(
  annotator: Annotator,
  aspects: readonly AspectDefinition[],
  review: ReviewInput,
  labels?: Readonly<Record<string, Sentiment>>,
): string[] {
  const a = annotator.annotate(review);
  const id = (i: number) => (aspects[i] as AspectDefinition).id;
  const lines = [`Machine reading of ${review.id} (${review.rating} stars), sentence by sentence:`];
  if (review.title && !a.titleRead) lines.push(`  (title ${JSON.stringify(review.title)}: names no aspect, not read)`);
  let sentence = -1;
  a.clauses.forEach((clause, k) => {
    if (clause.sentenceIndex !== sentence) {
      sentence = clause.sentenceIndex;
      const title = a.titleRead && sentence === 0 ? " (title)" : "";
      lines.push(`  ${sentence + 1}. ${clause.sentence}${title}`);
    }
    for (const r of a.readings[k] ?? []) {
      const score = round(r.score);
      const why = reason(r);
      const part = a.clauses.filter((c) => c.sentenceIndex === sentence).length > 1 ? ` [${clause.text}]` : "";
      lines.push(`       ${id(r.aspect).padEnd(12)} ${polarity(score).padEnd(8)} ${signed(score)}  ${why}${part}`);
    }
    for (const v of a.vetoed.filter((x) => x.clause === k)) {
      const model =
        v.by === "confirm"
          ? "confirm model finds it named only in passing"
          : "aspect model finds the sentence about something else";
      lines.push(`       ${id(v.aspect).padEnd(12)} not read: the ${model} (p ${v.p}, under ${v.need})`);
    }
  });
  if (a.clauses.every((_, k) => (a.readings[k] ?? []).length === 0)) lines.push("  (no aspect named)");
  lines.push("Review:");
  const quotable = (x: ReviewAspect) => {
    const i = aspects.findIndex((d) => d.id === x.id);
    const sign = Math.sign(x.score);
    return a.mentions.some((m) => m.aspect === i && m.confident && Math.sign(m.score) === sign);
  };
  for (const x of a.aspects) {
    const note =
      x.sentiment === "neutral"
        ? ""
        : quotable(x)
          ? "  (a sentence may be quoted)"
          : "  (no sentence is explicit enough to quote)";
    const v = a.verdicts.get(aspects.findIndex((d) => d.id === x.id));
    const whole = v
      ? `  (the review model read the whole review ${v.side} at p ${v.p}; its clauses alone read ${v.from})`
      : "";
    lines.push(`  ${x.id.padEnd(12)} ${x.sentiment.padEnd(8)} ${signed(x.score)}${note}${whole}`);
  }
  for (const [i, p] of a.dropped) {
    lines.push(`  ${id(i).padEnd(12)} dropped: the presence model finds the review discusses it at p ${p} only`);
  }
  if (a.aspects.length === 0) lines.push("  no aspect");
  const suggestion = a.aspects.map((x) => `${x.id}: ${x.sentiment}`).join(", ");
  // An empty map is refused (it would label nothing), so a review read with no aspect has none to offer.
  if (!labels && a.aspects.length === 0) {
    if (aspects.length === 0) return lines;
    lines.push("To correct it, add to the file the aspects it discusses, for example:");
    lines.push(`  aspects: {${id(0)}: positive}`);
    return lines;
  }
  if (!labels) {
    lines.push("To confirm it (or correct it) add to the file, then edit what is wrong:");
    lines.push(`  aspects: {${suggestion}}`);
    return lines;
  }
  const read = new Map(a.aspects.map((x) => [x.id, x.sentiment]));
  const differences = [
    ...Object.entries(labels)
      .filter(([k, v]) => read.get(k) !== v)
      .map(([k, v]) => `${k}: editor ${v}, machine ${read.get(k) ?? "not found"}`),
    ...a.aspects.filter((x) => !(x.id in labels)).map((x) => `${x.id}: editor none, machine ${x.sentiment}`),
  ];
  lines.push(
    differences.length === 0
      ? "The file's aspects: labels agree with this reading; they are what is published."
      : `The file's aspects: labels are what is published; they differ from this reading on ${differences.join("; ")}.`,
  );
  return lines;
}
