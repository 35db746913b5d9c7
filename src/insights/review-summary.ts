import type { Business, ReviewAspect } from "../content/records.ts";
import { createAnnotator, type ReviewAnnotation, type ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";
import { createCountedSentences, ReviewCounted } from "./counted.ts";
import type { Analyzer, Clause } from "./nlp.ts";
import type { AspectMention } from "./readings.ts";
import { type TopicCandidate, topicCandidates } from "./topics.ts";

/**
 * Everything the insights take from one review's analysis, and nothing more: the annotation
 * without its clauses, plus the review's topic candidates. It is a pure function of the review's
 * annotated fields, the insights content, the business's catalogue and the analyser, so the build
 * can compute it on any thread and keep it between builds (annotation-store.ts); the clauses, the
 * bulk of an analysis, are dropped as soon as it is made.
 *
 * Scores are kept as computed (unrounded), and every list in the order it was built in: the
 * insights add them up in that order, and float sums depend on it.
 */
export interface ReviewSummary
  extends Omit<
    ReviewAnnotation,
    "clauses" | "titleRead" | "unreadTitle" | "readings" | "verdicts" | "dropped" | "vetoed"
  > {
  topics: TopicCandidate[];
  /**
   * The sentence each reading of `aspects` rests on, as the evidence pages show it (counted.ts).
   * Kept with the rest, not made on every build: on an entity's page it runs the catalogue's
   * matchers over the review's clauses, about 0.3 s of a rebuild at 10,000 reviews. An editor's
   * labels replace the reading, and these with it (editor-labels.ts).
   */
  counted: ReviewCounted;
}

export type Summariser = (review: ReviewInput) => ReviewSummary;

export function createSummariser(content: InsightsContent, business: Business, analyzer: Analyzer): Summariser {
  const annotator = createAnnotator(content, business, analyzer);
  const excluded = excludedPhrases(analyzer, content, business);
  const countedOf = createCountedSentences(business, aspectIndex(content));
  return (review) => {
    const { aspects, scores, mentions, entityAspects, clauses, unreadTitle, sentences } = annotator.annotate(review);
    // A title read for no aspect was still analysed, and still names its topics ("Activator method").
    const topics = topicCandidates([...unreadTitle, ...clauses], excluded);
    const titleSentences = unreadTitle.length === 0 ? 0 : (unreadTitle.at(-1) as Clause).sentenceIndex + 1;
    const counted = countedOf(review, aspects, mentions);
    return { aspects, scores, mentions, entityAspects, topics, sentences: sentences + titleSentences, counted };
  };
}

/** As stored: plain arrays, mentions as tuples. */
type Stored = [
  aspects: [id: string, sentiment: ReviewAspect["sentiment"], score: number][],
  scores: [aspect: number, score: number][],
  mentions: [
    aspect: number,
    sentence: string,
    sentenceIndex: number,
    score: number,
    confident: 0 | 1,
    start: number,
    end: number,
  ][],
  entityAspects: [entity: string, aspects: number[]][],
  topics: TopicCandidate[],
  sentences: number,
  counted: (string | number)[],
];

/** -0 does not survive JSON; it is written as this string and read back. */
const NEG_ZERO = "-0";
const num = (n: number): number | string => (Object.is(n, -0) ? NEG_ZERO : n);
const back = (n: unknown): number => {
  if (n === NEG_ZERO) return -0;
  if (typeof n !== "number") throw new TypeError("not a number");
  return n;
};

/** One line of JSON (JSON.stringify escapes every line break). */
export function encodeSummary(s: ReviewSummary): string {
  const stored = [
    s.aspects.map((a) => [a.id, a.sentiment, num(a.score)]),
    [...s.scores].map(([a, v]) => [a, num(v)]),
    s.mentions.map((m) => [m.aspect, m.sentence, m.sentenceIndex, num(m.score), m.confident ? 1 : 0, ...m.span]),
    [...s.entityAspects].map(([e, set]) => [e, [...set]]),
    s.topics,
    s.sentences,
    s.counted.stored(s.mentions),
  ];
  return JSON.stringify(stored);
}

/**
 * The summary `encodeSummary` wrote; throws on anything else, so a damaged entry is recomputed.
 * `name` gives the build's own copy of each aspect and entity its counted sentences name, rather
 * than one per review (about 600,000 strings at 100,000 reviews).
 */
export function decodeSummary(json: string, name?: (s: string) => string): ReviewSummary {
  const [aspects, scores, mentions, entityAspects, topics, sentences, counted] = JSON.parse(json) as Stored;
  if (
    !Array.isArray(aspects) ||
    !Array.isArray(scores) ||
    !Array.isArray(mentions) ||
    !Array.isArray(entityAspects) ||
    !Array.isArray(topics) ||
    typeof sentences !== "number"
  ) {
    throw new TypeError("not an annotation");
  }
  const read = mentions.map(([aspect, sentence, sentenceIndex, score, confident, start, end]): AspectMention => {
    if (typeof start !== "number" || typeof end !== "number") throw new TypeError("no clause span");
    return { aspect, sentence, sentenceIndex, score: back(score), span: [start, end], confident: confident === 1 };
  });
  return {
    aspects: aspects.map(([id, sentiment, score]) => ({ id, sentiment, score: back(score), source: "machine" })),
    scores: new Map(scores.map(([a, v]) => [a, back(v)])),
    mentions: read,
    entityAspects: new Map(entityAspects.map(([e, list]) => [e, new Set(list)])),
    topics,
    sentences,
    counted: ReviewCounted.fromStored(counted, read, name),
  };
}

/** Each aspect id's index in the content's aspects: how mentions and scores name an aspect. */
export function aspectIndex(content: Pick<InsightsContent, "aspects">): Map<string, number> {
  return new Map(content.aspects.map((a, i) => [a.id, i]));
}

/**
 * Lemma and surface keys of every aspect term, condition, catalogue name and alias, and of the
 * business's own name: topics must go beyond those.
 */
function excludedPhrases(analyzer: Analyzer, content: InsightsContent, business: Business): Set<string> {
  const phrases = [
    ...content.aspects.flatMap((a) => [...a.terms, ...a.neutral_terms]),
    ...content.lexicon.conditions.flatMap((c) => c.terms),
    ...[...business.technicians, ...business.services, ...business.service_areas].flatMap((c) => [
      c.name,
      ...c.aliases,
    ]),
  ];
  const keys = new Set<string>();
  for (const p of phrases) {
    const { normals, lemmas } = analyzer.termForms(p);
    keys.add(normals.join(" "));
    keys.add(lemmas.join(" "));
  }
  // Every piece of the practice's own name too: "Willow Creek" recurs in reviews but says nothing.
  const own = analyzer.termForms(business.name);
  for (let size = 2; size <= 3; size++) {
    for (let i = 0; i + size <= own.normals.length; i++) {
      keys.add(own.normals.slice(i, i + size).join(" "));
      keys.add(own.lemmas.slice(i, i + size).join(" "));
    }
  }
  return keys;
}
