import type { Clause } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * Sentence ends wink's splitter misses after a word it takes for an abbreviation ("I came in. Dr.
 * Patel was great.", "which I knew going in. Three stars because…"): such a clause is never quoted
 * (quote-claims.ts), and the span an evidence page marks in it is the sentence its reading rests on.
 */

/** Abbreviations a capitalised name follows inside a sentence: "Dr. Patel", "Main St. Clinic", "vs. Dr. Kim". */
const BEFORE_NAMES = new Set(["dr", "mr", "mrs", "ms", "mx", "st", "mt", "jr", "sr", "prof", "vs", "no"]);

/**
 * Whether a clause runs over a sentence end the sentence splitter missed after a word it took for
 * an abbreviation: "I came in. Dr. Patel was great.", "around 10am. Dr. Patel was so kind.", "which
 * I knew going in. Three stars because…". Quoted, it would show two sentences as one claim, with
 * the first read as part of the second. An initial ("J. Smith"), a title or an ellipsis ("again...
 * NOT") is no sentence end.
 */
export function runsOnUnsplit(clause: Clause): boolean {
  return missedEnds(clause).length > 0;
}

/** The tokens of a clause after which a sentence ends that the splitter missed. */
function missedEnds({ tokens, start, end }: Clause): number[] {
  const { values, normals } = tokens;
  const ends: number[] = [];
  for (let i = start; i < end - 1; i++) {
    const v = values[i] as string;
    const n = normals[i] as string;
    // Most tokens do not end in a full stop: the tests of its letter are left for those that do.
    if (!v.endsWith(".") || !/[\p{L}\p{N}]\.$/u.test(v) || BEFORE_NAMES.has(n) || /^\p{L}$/u.test(n)) continue;
    if (/^\p{Lu}/u.test(values[i + 1] as string)) ends.push(i);
  }
  return ends;
}

/**
 * The part of a clause's `span` (character offsets in its sentence) that an evidence page marks for
 * reading `r`: where the clause runs over sentence ends the splitter missed, the sentence holding the
 * first word credited to the reading ("Insurance didn't cover the decompression table at all, which
 * I knew going in." of "…going in. Three stars because the people are lovely…"); else all of it.
 */
export function readSpan(clause: Clause, span: [number, number], r: AspectReading): [number, number] {
  const ends = missedEnds(clause);
  const { values } = clause.tokens;
  const word = r.words[0]?.slice(0, -1);
  if (ends.length === 0 || word === undefined || clause.text.length !== span[1] - span[0]) return span;
  // Each token's offset in the clause's text, which is its tokens joined with or without a space.
  const offsets: number[] = [];
  let at = 0;
  for (let i = clause.start; i < clause.end; i++) {
    at = clause.text.indexOf(values[i] as string, at);
    offsets.push(at);
    at += (values[i] as string).length;
  }
  const first = values.slice(clause.start, clause.end).indexOf(word);
  if (first < 0 || offsets.some((o) => o < 0)) return span;
  const from = [clause.start - 1, ...ends].filter((e) => e < clause.start + first).pop() as number;
  const to = ends.find((e) => e >= clause.start + first) ?? clause.end - 1;
  const end = (offsets[to - clause.start] as number) + (values[to] as string).length;
  return [span[0] + (offsets[from + 1 - clause.start] as number), span[0] + end];
}
