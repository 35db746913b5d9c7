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
 * 2 reviews count. A 2-word phrase is dropped when a 3-word phrase containing it has the same count
 * (it never occurs on its own). Ranking: count descending, then longer phrase first, then phrase
 * alphabetically; the top 20 are published.
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
/** Adjectives that order, count or date a noun rather than describe it. */
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

interface Entry {
  count: number;
  last: number;
  /** Review positions (newest-first order), the first MAX_IDS only. */
  ids: number[];
  phrase: string;
  size: number;
}

/** One review's candidates, each once, in order of first occurrence: lemma key, surface phrase, size. */
export type TopicCandidate = [key: string, phrase: string, size: number];

/**
 * The candidates of one review's clauses, minus `excluded` (lemma keys, space-joined, of aspect
 * terms and catalogue names). A pure function of the clauses, so it can be computed where the
 * clauses are (an analysis worker) and kept with the review's annotation.
 */
export function topicCandidates(clauses: readonly Clause[], excluded: ReadonlySet<string>): TopicCandidate[] {
  const seen = new Set<string>();
  const out: TopicCandidate[] = [];
  for (const { tokens: t, start, end } of clauses) {
    let i = start;
    while (i < end) {
      let j = i;
      while (j < end && t.words[j] && !t.stop[j] && CONTENT_POS.has(t.pos[j] as string)) j++;
      for (let last = i + 1; last < j; last++) {
        if (!HEAD_POS.has(t.pos[last] as string) || TIME_HEADS.has(t.lemmas[last] as string)) continue;
        if (HYPHENS.has(t.values[last + 1] as string)) continue;
        for (let size = 2; size <= 3 && last - size + 1 >= i; size++) {
          const from = last - size + 1;
          if (HYPHENS.has(t.values[from - 1] as string) || NON_DESCRIPTIVE.has(t.normals[from] as string)) continue;
          const key = t.lemmas.slice(from, last + 1).join(" ");
          const phrase = t.normals.slice(from, last + 1).join(" ");
          // A review counts a phrase once, under the surface form it first has there.
          if (excluded.has(key) || excluded.has(phrase) || seen.has(key)) continue;
          seen.add(key);
          out.push([key, phrase, size]);
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

  const count = (order: number, key: string, phrase: string, size: number) => {
    const e = table.get(key);
    if (!e) {
      table.set(key, { count: 1, last: order, ids: [order], phrase, size });
    } else if (e.last !== order) {
      e.count++;
      e.last = order;
      if (e.ids.length < MAX_IDS) e.ids.push(order);
    }
  };

  return {
    add(order, candidates) {
      for (const [key, phrase, size] of candidates) count(order, key, phrase, size);
      if (table.size > MAX_CANDIDATES) {
        for (const [key, e] of table) if (e.count === 1) table.delete(key);
      }
    },

    finish(idAt) {
      const subsumed = new Set<string>();
      for (const [key, e] of table) {
        if (e.size !== 3 || e.count < MIN_COUNT) continue;
        const words = key.split(" ");
        for (const part of [words.slice(0, 2).join(" "), words.slice(1).join(" ")]) {
          if (table.get(part)?.count === e.count) subsumed.add(part);
        }
      }
      return [...table]
        .filter(([key, e]) => e.count >= MIN_COUNT && !subsumed.has(key))
        .sort(([ka, a], [kb, b]) => b.count - a.count || b.size - a.size || (ka < kb ? -1 : ka > kb ? 1 : 0))
        .slice(0, MAX_TOPICS)
        .map(([, e]) => ({ phrase: e.phrase, count: e.count, review_ids: e.ids.map(idAt) }));
    },
  };
}
