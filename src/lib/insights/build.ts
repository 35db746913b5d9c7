import { compareReviews } from "../dataset.ts";
import { createMatcher } from "../mentions.ts";
import type { Business, ReviewRecord } from "../records.ts";
import { createAspectStats } from "./aspect-stats.ts";
import { compileTerms, type TermMatch } from "./aspects.ts";
import type { InsightsContent } from "./content-schema.ts";
import { createEntityStats } from "./entities.ts";
import { type Analyzer, type Clause, createAnalyzer } from "./nlp.ts";
import { periodOf, type TrendPeriods, trendPeriods } from "./numbers.ts";
import type { Insights } from "./schema.ts";
import { buildFaq, buildSummary, type RatingTotals, ratingTrend } from "./summary.ts";
import { createTopicCounter } from "./topics.ts";

export interface InsightsInput {
  /** Published review records (any order; they are processed newest first). */
  reviews: readonly ReviewRecord[];
  business: Business;
  content: InsightsContent;
  /** Reuse one analyzer across builds (tests); a fresh one is created otherwise. */
  analyzer?: Analyzer;
}

/**
 * Computes every insight in one streaming pass over the reviews: each review is analysed, its
 * clauses are fed to the aspect, entity and topic accumulators, and then dropped. Output is a pure
 * function of the input: ordering is fixed everywhere and every score is rounded.
 */
export function buildInsights({ reviews, business, content, analyzer = createAnalyzer() }: InsightsInput): Insights {
  const sorted = [...reviews].sort(compareReviews);
  const newest = sorted[0]?.date;
  const periods: TrendPeriods | undefined = newest ? trendPeriods(newest) : undefined;

  const aspectDefs = content.aspects;
  // Two term groups per aspect: group 2i holds aspect i's terms, group 2i+1 its neutral terms.
  const matcher = compileTerms(
    aspectDefs.flatMap((a) => [a.terms, a.neutral_terms]),
    (t) => analyzer.termForms(t),
  );
  const byTechnicianName = aspectDefs.flatMap((a, i) => (a.technician_names ? [i] : []));
  const technicianMatchers = new Map(business.technicians.map((t) => [t.id, createMatcher([t])]));

  const aspects = createAspectStats(aspectDefs);
  const entities = createEntityStats(business, aspectDefs);
  const topics = createTopicCounter(excludedPhrases(analyzer, content, business));
  const rating: RatingTotals = { recent: { n: 0, sum: 0 }, previous: { n: 0, sum: 0 } };
  let sentences = 0;

  sorted.forEach((review, order) => {
    const clauses: Clause[] = review.title ? analyzer.clauses(review.title) : [];
    const offset = clauses.length === 0 ? 0 : (clauses[clauses.length - 1] as Clause).sentenceIndex + 1;
    clauses.push(...analyzer.clauses(review.text, offset));
    sentences += clauses.length === 0 ? 0 : (clauses[clauses.length - 1] as Clause).sentenceIndex + 1;

    const period = periods ? periodOf(review.date, periods) : undefined;
    if (period) {
      rating[period].n++;
      rating[period].sum += review.rating;
    }
    const mentioned = new Set<number>();
    for (const clause of clauses) {
      const spans = matcher.spans(clause);
      clause.score = scoreWithoutNeutralTerms(clause, spans, analyzer);
      const found = new Set(spans.map((m) => m.group >> 1));
      if (byTechnicianName.length > 0 && namesTechnician(clause, review, technicianMatchers)) {
        for (const i of byTechnicianName) found.add(i);
      }
      for (const i of [...found].sort((a, b) => a - b)) {
        aspects.add(i, order, review, clause, period);
        mentioned.add(i);
      }
    }
    entities.add(review, clauses, mentioned);
    topics.add(order, clauses);
  });

  const aspectInsights = aspects.finish(sorted.length, periods);
  return {
    aspects: aspectInsights,
    entities: entities.finish(),
    topics: topics.finish((order) => (sorted[order] as ReviewRecord).id),
    faq: buildFaq(content.faq, new Map(sorted.map((r) => [r.id, r.url]))),
    summary: buildSummary({
      editorial: content.summary,
      aspects: aspectInsights,
      ratingTrend: periods ? ratingTrend(periods, rating) : null,
      coverage: {
        review_count: sorted.length,
        sentences_analysed: sentences,
        first_review_date: sorted[sorted.length - 1]?.date ?? null,
        newest_review_date: newest ?? null,
      },
    }),
  };
}

/**
 * A neutral term names the aspect without judging it, so its own lexicon sentiment ("pain" is
 * negative to wink) must not decide the clause: the clause is rescored without it. A negated
 * neutral term is an opinion ("no pain at all") and stays in.
 */
function scoreWithoutNeutralTerms(clause: Clause, spans: readonly TermMatch[], analyzer: Analyzer): number {
  const { negated, values } = clause.tokens;
  const drop = new Set<number>();
  for (const m of spans) {
    if (m.group % 2 === 0 || negated.slice(m.start, m.end).some(Boolean)) continue;
    for (let i = m.start; i < m.end; i++) drop.add(i);
  }
  if (drop.size === 0) return clause.score;
  const kept: string[] = [];
  for (let i = clause.start; i < clause.end; i++) if (!drop.has(i)) kept.push(values[i] as string);
  return analyzer.score(kept.join(" "));
}

/** Only the review's own technicians can be named in it (records already list every detected one). */
function namesTechnician(
  clause: Clause,
  review: ReviewRecord,
  matchers: ReadonlyMap<string, ReturnType<typeof createMatcher>>,
): boolean {
  return review.technicians.some((id) => (matchers.get(id)?.detect(clause.text).length ?? 0) > 0);
}

/**
 * Lemma and surface keys of every aspect term, catalogue name and alias, and of the business's own
 * name: topics must go beyond those.
 */
function excludedPhrases(analyzer: Analyzer, content: InsightsContent, business: Business): Set<string> {
  const phrases = [
    ...content.aspects.flatMap((a) => [...a.terms, ...a.neutral_terms]),
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
