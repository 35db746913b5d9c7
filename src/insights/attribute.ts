import { isIncluded, isPlace, isPricedPart } from "./constructions.ts";
import type { Clause } from "./nlp.ts";
import type { AspectReading, AspectSpan } from "./readings.ts";

/**
 * Attribution: which aspect of a clause each polar word speaks about (polarity.ts step 3).
 */

/** Value of a domain opinion or outcome word; wink's general words are mostly 0.2-0.8. */
export const WORD_WEIGHT = 0.6;

/** An aspect's score in a clause from the sum of the values credited to it, in (-1, 1). */
export const clauseScore = (sum: number): number => Math.tanh(1.5 * sum);

/** A polar word of a clause: token index, value, and the aspect it is bound to, if any. */
export interface Polar {
  at: number;
  value: number;
  /** Aspect the value must go to (outcomes and negated conditions go to their condition's aspect). */
  aspect?: number;
  /** A negated condition: a symptom that was not there. */
  absent?: boolean;
  /** Valued by wink's general lexicon, not by the project's own words (sentiment.yaml): a word that judges, or a noun that names. */
  wink?: "judges" | "names";
}

/**
 * A noun wink's general lexicon values names a thing with a connotation when it stands in a
 * compound ("a workplace wellness benefit", "our employee wellness program", the title "Employee
 * Wellness Benefit"): it does not judge. Such a word still counts, but a clause whose only opinion
 * it is is no quote (annotate.ts, `confident`). On its own a noun may judge ("Love the front desk",
 * "an error on my bill"). wink tags a capitalised noun PROPN, so a name ("Love Dr. Patel") after a
 * common noun does not make a compound, but any noun before one does.
 */
export function names(clause: Clause, i: number): boolean {
  const tag = (j: number) => (j >= clause.start && j < clause.end ? clause.tokens.pos[j] : undefined);
  const noun = (t: string | undefined) => t === "NOUN" || t === "PROPN";
  const own = tag(i);
  return noun(own) && (noun(tag(i - 1)) || tag(i + 1) === "NOUN" || (own === "PROPN" && tag(i + 1) === "PROPN"));
}

/** Prepositions of a place where something happened ("in the parking lot"), not of a state ("on time"). */
const WHERE = new Set(["in", "at", "inside", "outside", "near"]);

/** The preposition of what a visit or a plan was for ("a plan for my herniated disc"). */
const FOR = new Set(["for"]);

const SEGMENT_END = new Set([",", ";", ":", "and", "with", "&", "plus", "while", "because", "so", "—"]);

/** Segment number of every token of the clause: segments end at commas, "and", "with". */
function segments(clause: Clause): Int32Array {
  const out = new Int32Array(clause.end - clause.start);
  let seg = 0;
  for (let i = clause.start; i < clause.end; i++) {
    if (SEGMENT_END.has(clause.tokens.normals[i] as string)) seg++;
    out[i - clause.start] = seg;
  }
  return out;
}

export function attribute(clause: Clause, mentions: readonly AspectSpan[], polar: readonly Polar[]): AspectReading[] {
  const sums = new Map<
    number,
    { sum: number; polar: boolean; absent: boolean; own: boolean; judges: boolean; words: string[] }
  >();
  for (const m of mentions) {
    if (!sums.has(m.aspect))
      sums.set(m.aspect, { sum: 0, polar: false, absent: false, own: false, judges: false, words: [] });
  }
  const seg = segments(clause);
  const segOf = (at: number) => seg[at - clause.start] as number;
  const { pos } = clause.tokens;
  /** Whether the segment of `at` names a thing of its own, a noun that is not the polar word itself. */
  const ownNoun = (at: number) => {
    for (let i = clause.start; i < clause.end; i++) {
      if (i !== at && segOf(i) === segOf(at) && (pos[i] === "NOUN" || pos[i] === "PROPN")) return true;
    }
    return false;
  };
  const credit = (aspect: number, p: Polar) => {
    const s = sums.get(aspect);
    if (!s) return;
    s.sum += p.value;
    s.polar = true;
    s.absent ||= p.absent === true;
    s.own ||= p.wink === undefined;
    s.judges ||= p.wink !== "names";
    s.words.push(`${clause.tokens.values[p.at]}${p.value > 0 ? "+" : "-"}`);
  };
  for (const p of polar) {
    if (p.aspect !== undefined && sums.has(p.aspect)) {
      credit(p.aspect, p);
      continue;
    }
    const own = mentions.find((m) => p.at >= m.start && p.at < m.end);
    if (own) {
      credit(own.aspect, p);
      continue;
    }
    const mySeg = segOf(p.at);
    const sameSeg = mentions.filter((m) => segOf(m.start) === mySeg);
    // "Good rehab, bad parking": a word that judges a thing its own segment names, which is no
    // aspect, says nothing about the aspects of the other segments, when they carry opinions too.
    if (sameSeg.length === 0 && ownNoun(p.at) && polar.some((q) => segOf(q.at) !== mySeg)) continue;
    let pool = sameSeg.length > 0 ? sameSeg : mentions;
    // "The voicemail box at the office has been full": where something is ("at the office") is not
    // what the clause judges, when the clause names something else; nor is a part of it ("$39
    // including the exam, can't beat it").
    const subjects = pool.filter((m) => !isPlace(clause, m.start) && !isIncluded(clause, m.start));
    if (subjects.length > 0 && subjects.length < pool.length) pool = subjects;
    // A part of an amount takes none of it even when nothing else is named: the opinion is the price's.
    else if (pool.every((m) => isPricedPart(clause, m.start))) continue;
    // "gave me a clear plan for my herniated disc": a word before a condition named as what a thing
    // was for judges that thing, not the result, when the clause names anything else.
    // "great for sciatica" judges the result: the word must judge a thing named between.
    const thingBetween = (m: AspectSpan) => pos.slice(p.at + 1, m.start).some((t) => t === "NOUN");
    const purposes = pool.filter(
      (m) => m.condition && m.start > p.at && isPlace(clause, m.start, FOR) && thingBetween(m),
    );
    if (purposes.length === pool.length) {
      const others = mentions.filter((m) => !purposes.includes(m) && !m.condition);
      if (others.length > 0) pool = others;
    }
    let best = pool[0] as AspectSpan;
    let dist = Number.POSITIVE_INFINITY;
    for (const m of pool) {
      // Ties go to the mention before the word: "the staff were lovely" names, then judges.
      const d = m.start <= p.at ? p.at - m.end : m.start - p.at + 0.5;
      if (d < dist) {
        dist = d;
        best = m;
      }
    }
    credit(best.aspect, p);
  }
  const weakOnly = new Set(mentions.map((m) => m.aspect));
  for (const m of mentions) if (!m.weak) weakOnly.delete(m.aspect);
  // When the clause's opinion goes to some aspects, the others are named in passing ("the doctor
  // was running behind"): the clause is not about them.
  const anyPolar = [...sums.values()].some((s) => s.polar);
  // Nor is where something happened, when the clause names what happened ("my back went into
  // spasm in the parking lot").
  const where = (m: AspectSpan) => !m.condition && isPlace(clause, m.start, WHERE);
  const placed = new Set(mentions.filter(where).map((m) => m.aspect));
  for (const m of mentions) if (!where(m)) placed.delete(m.aspect);
  const inPassing = (aspect: number) => weakOnly.has(aspect) || (placed.has(aspect) && placed.size < sums.size);
  return [...sums]
    .filter(([aspect, s]) => s.polar || (!anyPolar && !inPassing(aspect)))
    .sort(([a], [b]) => a - b)
    .map(([aspect, s]) => ({
      aspect,
      score: clauseScore(s.sum),
      polar: s.polar,
      words: s.words,
      ...(s.absent ? { absent: true } : {}),
      ...(s.polar && !s.own ? { wink: s.judges ? ("judges" as const) : ("names" as const) } : {}),
    }));
}
