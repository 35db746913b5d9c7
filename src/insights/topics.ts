import type { Clause } from "./nlp.ts";
import type { Topic } from "./schema.ts";

/**
 * Recurring key phrases beyond the editorial aspects.
 *
 * Candidates: inside each clause, maximal runs of words that are adjectives, nouns or proper nouns
 * and not stop words; every 2- and 3-word window of a run that ends in a noun or proper noun is a
 * candidate ("validated garage", "lower back pain"). A candidate must be a whole noun phrase: it may
 * not start or end inside a hyphenated compound ("free posture" from "pain-free posture", "day
 * appointment" from "same-day appointment"), start with an adjective that only orders or counts
 * ("new", "first", "other") or end in a unit of time ("new year", "second visit"). Candidates are keyed by their lemmas, so
 * "treatment rooms" and "treatment room" are one phrase. Phrases identical to an aspect term or to a
 * catalogue name or alias are dropped: aspects and entities already report those.
 *
 * Measure: document frequency, the number of reviews containing the phrase. Only phrases in at least
 * 2 reviews count, and only those some review uses whole, as its own noun phrase: "tissue work"
 * that only ever comes inside "deep tissue work" or "soft tissue work" is a fragment. Ranking:
 * count descending, then longer phrase first, then phrase alphabetically; a phrase inside a topic
 * ranked above it, or holding one, is a near-duplicate and dropped; the top 20 are published.
 */

const MIN_COUNT = 2;
const MAX_TOPICS = 20;
const MAX_IDS = 100;
/**
 * Bound on the candidate table. When it is exceeded, phrases seen in only one review so far are
 * dropped; with reviews processed newest first, a phrase that recurs only in older reviews may then
 * be under-counted, which keeps memory flat on 100,000 reviews at the cost of exactness in the tail.
 */
const MAX_CANDIDATES = 200_000;

const CONTENT_POS = new Set(["ADJ", "NOUN", "PROPN"]);
/** Adjectives that order, count or date a noun, or only praise it, rather than describe it; any degree ("nicest", "better"). */
const NON_DESCRIPTIVE = new Set([
  "new",
  "first",
  "second",
  "third",
  "last",
  "next",
  "other",
  "same",
  "few",
  "several",
  "many",
  "whole",
  "entire",
  "only",
  "previous",
  "recent",
  "own",
  "such",
  "much",
  "more",
  "most",
  "great",
  "good",
  "nice",
  "amazing",
  "best",
]);
/** Heads that make a date or a count, not a topic. */
const TIME_HEADS = new Set(["day", "week", "month", "year", "minute", "hour", "time", "visit", "session", "today"]);
const HYPHENS = new Set(["-", "–", "—"]);
const HEAD_POS = new Set(["NOUN", "PROPN"]);
/** What may come before a gerund that describes the noun after it: "the waiting room", "their booking system". */
const GERUND_LEADS = new Set(["DET", "PRON", "ADP", "PUNCT", "CCONJ"]);

/** Whether word `k` of `t` only orders, counts or praises (`NON_DESCRIPTIVE`), by its form or its lemma. */
function nonDescriptive(t: Clause["tokens"], k: number): boolean {
  return NON_DESCRIPTIVE.has(t.normals[k] as string) || NON_DESCRIPTIVE.has(t.lemmas[k] as string);
}

interface Entry {
  count: number;
  /** Whether some review uses the phrase as a whole noun phrase, not only inside a longer one. */
  whole: boolean;
  last: number;
  /** Review positions (newest-first order), the first MAX_IDS only. */
  ids: number[];
  phrase: string;
  size: number;
}

/**
 * One review's candidates, each once, in order of first occurrence: lemma key, surface phrase, size,
 * and 1 when some occurrence in the review is a whole noun phrase (see `topicCandidates`), else 0.
 */
export type TopicCandidate = [key: string, phrase: string, size: number, whole: 0 | 1];

/**
 * The candidates of one review's clauses, minus `excluded` (lemma keys, space-joined, of aspect
 * terms and catalogue names). A pure function of the clauses, so it can be computed where the
 * clauses are (an analysis worker) and kept with the review's annotation.
 */
export function topicCandidates(clauses: readonly Clause[], excluded: ReadonlySet<string>): TopicCandidate[] {
  const seen = new Map<string, TopicCandidate>();
  const out: TopicCandidate[] = [];
  for (const { tokens: t, start, end } of clauses) {
    let i = start;
    while (i < end) {
      let j = i;
      while (j < end && t.words[j] && !t.stop[j] && CONTENT_POS.has(t.pos[j] as string)) j++;
      // The run as a noun phrase: from its first describing word to its last noun ("deep tissue
      // work" in "great deep tissue work"). A window that is exactly this is a whole phrase.
      let head = -1;
      for (let k = i; k < j; k++) if (HEAD_POS.has(t.pos[k] as string)) head = k;
      let opening = i;
      while (opening < j && nonDescriptive(t, opening)) opening++;
      // A describing word that wink lists as a stop word ("front" in "front desk staff") ends the run
      // but not the noun phrase: what follows it is a fragment, never used whole here. So does a
      // gerund wink tags as a verb where nothing it could act on comes before it ("Waiting room
      // chairs are hard", opening the clause, or after "the", "their", "in").
      const prev = i - 1;
      const gerund =
        t.pos[prev] === "VERB" &&
        /ing$/.test(t.normals[prev] as string) &&
        (prev === start || GERUND_LEADS.has(t.pos[prev - 1] as string));
      const cut =
        opening === i &&
        prev >= start &&
        t.words[prev] === true &&
        (CONTENT_POS.has(t.pos[prev] as string) || gerund) &&
        !nonDescriptive(t, prev);
      for (let last = i + 1; last < j; last++) {
        if (!HEAD_POS.has(t.pos[last] as string) || TIME_HEADS.has(t.lemmas[last] as string)) continue;
        if (HYPHENS.has(t.values[last + 1] as string)) continue;
        for (let size = 2; size <= 3 && last - size + 1 >= i; size++) {
          const from = last - size + 1;
          if (HYPHENS.has(t.values[from - 1] as string) || nonDescriptive(t, from)) continue;
          // "same day appointment": a unit of time opening a phrase dates it, as one closing it does.
          if (TIME_HEADS.has(t.lemmas[from] as string)) continue;
          const key = t.lemmas.slice(from, last + 1).join(" ");
          const phrase = t.normals.slice(from, last + 1).join(" ");
          if (excluded.has(key) || excluded.has(phrase)) continue;
          const whole = from === opening && last === head && !cut ? 1 : 0;
          // A review counts a phrase once, under the surface form it first has there.
          const before = seen.get(key);
          if (before) {
            before[3] ||= whole;
            continue;
          }
          const candidate: TopicCandidate = [key, phrase, size, whole];
          seen.set(key, candidate);
          out.push(candidate);
        }
      }
      i = j + 1;
    }
  }
  return out;
}

export interface TopicCounter {
  /** Counts review number `order` (newest-first position)'s candidates (see `topicCandidates`). */
  add(order: number, candidates: readonly TopicCandidate[]): void;
  /** `idAt(order)` gives the review id at a position in newest-first order. */
  finish(idAt: (order: number) => string): Topic[];
}

export function createTopicCounter(): TopicCounter {
  const table = new Map<string, Entry>();

  const count = (order: number, [key, phrase, size, whole]: TopicCandidate) => {
    const e = table.get(key);
    if (!e) {
      table.set(key, { count: 1, whole: whole === 1, last: order, ids: [order], phrase, size });
      return;
    }
    e.whole ||= whole === 1;
    if (e.last !== order) {
      e.count++;
      e.last = order;
      if (e.ids.length < MAX_IDS) e.ids.push(order);
    }
  };

  return {
    add(order, candidates) {
      for (const c of candidates) count(order, c);
      if (table.size > MAX_CANDIDATES) {
        for (const [key, e] of table) if (e.count === 1) table.delete(key);
      }
    },

    finish(idAt) {
      const ranked = [...table]
        .filter(([, e]) => e.count >= MIN_COUNT && e.whole)
        .sort(([ka, a], [kb, b]) => b.count - a.count || b.size - a.size || (ka < kb ? -1 : ka > kb ? 1 : 0));
      // Near-duplicates: a phrase inside a topic ranked above it, or holding one, says the same
      // thing ("treatment plan", then "long treatment plan"), so only the first is published.
      const kept: string[] = [];
      const out: Topic[] = [];
      for (const [key, e] of ranked) {
        if (out.length === MAX_TOPICS) break;
        const padded = ` ${key} `;
        if (kept.some((k) => padded.includes(` ${k} `) || ` ${k} `.includes(padded))) continue;
        kept.push(key);
        out.push({ phrase: e.phrase, count: e.count, review_ids: e.ids.map(idAt) });
      }
      return out;
    },
  };
}
