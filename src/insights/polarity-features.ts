import { features } from "./learned.ts";
import type { Clause, TokenTable } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * What the polarity model is told besides the clause's words: which aspect it is asked about, what
 * the rules read for it there, and the review around the clause (`reviewContext`). Trained the same
 * way (training.ts), so the model learns when the rules' side is to be trusted, and how far the
 * star rating and the rest of the review speak for the clause.
 */
export function polarityFeatures(
  words: readonly string[],
  aspectId: string,
  r: AspectReading | undefined,
  context: readonly string[] = [],
): string[] {
  const rule = ruleOf(r);
  const out = [...words, `aspect:${aspectId}`, `rule:${rule}`, `rule:${rule}|${aspectId}`];
  for (const w of words) if (!w.includes("_")) out.push(`${aspectId}|${w}`);
  for (const c of context) out.push(c, `${c}|rule:${rule}`, `${c}|${aspectId}`);
  return out;
}

function ruleOf(r: AspectReading | undefined): string {
  if (!r) return "absent";
  if (!r.polar) return r.byCondition ? "condition" : "unjudged";
  if (r.score === 0) return "tie";
  return `${r.score > 0 ? "positive" : "negative"}${explicit(r) ? "" : "-weak"}`;
}

/**
 * Whether a rule's reading is explicit evidence: read from the clause's own words (not a contrast
 * with another clause, not a construction such as a delay), all of one side.
 */
export function explicit(r: AspectReading): boolean {
  if (!r.polar || r.inferred || r.shape || r.score === 0) return false;
  const sign = r.score > 0 ? "+" : "-";
  return r.words.length > 0 && r.words.every((w) => w.endsWith(sign));
}

/** A clause's context without the review's rating or its other sentences: a 3-star sentence alone. */
export function wordsContext(context: readonly string[]): string[] {
  return ["rating:3", ...context.filter((c) => c === "past")];
}

/** Past-tense forms that are not `-ed` words: a clause told in the past is often the story before. */
const PAST = new Set(["was", "were", "had", "did", "could", "came", "went", "got", "felt", "told", "took", "left"]);

/**
 * What the polarity model is told about the review around each clause: its star rating, the side
 * the rules read in the review's other sentences (`rest:`), whether the clause opens a longer
 * review (`first`, where the story of an injury is usually told) and is told in the past (`past`).
 * Computed from the rules' readings, before any model speaks, at training and at build alike.
 */
export function reviewContext(clauses: readonly Clause[], readings: readonly AspectReading[][], rating: number) {
  const sentences = clauses.length === 0 ? 0 : (clauses[clauses.length - 1] as Clause).sentenceIndex + 1;
  const bySentence = new Array<number>(sentences).fill(0);
  readings.forEach((found, k) => {
    const s = (clauses[k] as Clause).sentenceIndex;
    for (const r of found) if (r.polar) bySentence[s] = (bySentence[s] as number) + r.score;
  });
  const total = bySentence.reduce((a, b) => a + b, 0);
  return clauses.map((c) => {
    const out = [`rating:${rating}`];
    if (sentences > 1) {
      const rest = total - (bySentence[c.sentenceIndex] as number);
      out.push(`rest:${rest > 0 ? "+" : rest < 0 ? "-" : "0"}|rating:${rating}`);
      if (c.sentenceIndex === 0) out.push("first");
    }
    for (let i = c.start; i < c.end; i++) {
      const n = c.tokens.normals[i] as string;
      const verb = c.tokens.pos[i] === "VERB" || c.tokens.pos[i] === "AUX";
      if (verb && (PAST.has(n) || (n.endsWith("ed") && n !== c.tokens.lemmas[i]))) {
        out.push("past");
        break;
      }
    }
    return out;
  });
}

/**
 * A clause's features and its segments' (`aspectSegment`), computed once, and each segment's marked
 * with the clause's, made the first time the segment is the one asked for.
 */
export type SegmentCache = Map<Clause, { clause: string[]; segments: string[][]; marked: string[][] }>;

/** The item of `items` that `score` rates highest (the first of equals). */
export function highest<T>(items: readonly T[], score: (item: T) => number): T {
  // One item is the highest whatever its score, which is not computed then (an aspect model's lookups).
  if (items.length === 1) return items[0] as T;
  let best = items[0] as T;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const v = score(item);
    if (v > bestScore) [best, bestScore] = [item, v];
  }
  return best;
}

/**
 * The features the polarity model reads for an aspect in a clause: the clause's, and when the
 * clause has several segments ("Warm room, skilled hands, cold reception"), also those of the
 * segment the aspect model finds most about the aspect, marked `g:`: the segment alone loses the
 * context of a one-aspect clause cut at a comma (docs/insights.md, "Learned models").
 */
export function aspectSegment(
  clause: Clause,
  aspectId: string,
  aspectOf: (id: string, feats: readonly string[]) => number,
  cache: SegmentCache,
  clauseFeatures?: string[],
): string[] {
  let c = cache.get(clause);
  if (!c) {
    const segs = segments(clause.tokens, clause.start, clause.end);
    c = {
      clause: clauseFeatures ?? features(clause.tokens, clause.start, clause.end),
      segments: segs.length === 1 ? [] : segs.map(([a, b]) => features(clause.tokens, a, b)),
      marked: [],
    };
    cache.set(clause, c);
  }
  const parts = c.segments;
  if (parts.length === 0) return c.clause;
  const best = parts.indexOf(highest(parts, (f) => aspectOf(aspectId, f)));
  c.marked[best] ??= [...c.clause, ...(parts[best] as string[]).map((w) => `g:${w}`)];
  return c.marked[best] as string[];
}

/** Punctuation that ends a segment of a clause. */
const SEGMENT_MARKS = new Set([",", ";", ":", "—", "–", "-", "(", ")", ".", "!", "?"]);
/** Words that start a new segment: what follows is usually about something else. */
const SEGMENT_WORDS = new Set(["while", "whereas", "which", "so", "though", "but", "and", "although", "yet"]);

/**
 * The segments of tokens `start`…`end`: runs cut at punctuation and at joining words, so that
 * "Warm room, skilled hands, cold reception" gives one segment per thing judged. The polarity model
 * reads the segment about the aspect asked (learned-reading.ts), not the whole clause. Segments
 * with no word are dropped; a clause with none gives itself.
 */
export function segments(tokens: TokenTable, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  let words = 0;
  const close = (to: number) => {
    if (words > 0) out.push([from, to]);
    words = 0;
  };
  for (let i = start; i < end; i++) {
    const n = tokens.normals[i] as string;
    if (!tokens.words[i] && SEGMENT_MARKS.has(n)) {
      close(i);
      from = i + 1;
    } else if (tokens.words[i] && SEGMENT_WORDS.has(n) && i > from) {
      close(i);
      from = i;
      words = 1;
    } else if (tokens.words[i]) words++;
  }
  close(end);
  return out.length > 0 ? out : [[start, end]];
}
