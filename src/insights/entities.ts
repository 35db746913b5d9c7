import { createMatcher, type Matcher } from "../content/mentions.ts";
import type { Business, ReviewRecord } from "../content/records.ts";
import type { CatalogueItem } from "../content/schema.ts";
import type { ReviewInput } from "./annotate.ts";
import type { AspectDefinition } from "./content-schema.ts";
import type { Clause } from "./nlp.ts";
import { mean, polarity, round } from "./numbers.ts";
import type { AspectReading } from "./readings.ts";
import type { ReviewSummary } from "./review-summary.ts";
import type { EntityInsight, Insights } from "./schema.ts";

/**
 * Technicians, services and service areas as the reviews see them. A review mentions an entity
 * when its record lists the id (explicit, or detected in the text by `mentions.ts`).
 *
 * Sentiment about an entity in one review comes from the review's own aspect annotation (the one
 * analysis): the mean of its aspect scores for the aspects discussed in the clauses that name the
 * entity; when no such clause carries an aspect (the id was given explicitly, or the name appears
 * in passing) the mean over all of the review's aspects stands in, and a review with no aspect is
 * neutral. That score is classified positive, neutral or negative, and
 * `net_sentiment = (positive - negative) / mentions`.
 */

const KINDS = ["technicians", "services", "service_areas"] as const;
type Kind = (typeof KINDS)[number];
const TOP_ASPECTS = 3;

interface Totals {
  mentions: number;
  ratingSum: number;
  positive: number;
  neutral: number;
  negative: number;
  /** Reviews per aspect index among the reviews that mention the entity. */
  aspects: Map<number, number>;
}

interface Tracked {
  item: CatalogueItem;
  order: number;
  totals: Totals;
}

export interface EntityStats {
  add(review: ReviewRecord, annotation: Pick<ReviewSummary, "scores" | "entityAspects">): void;
  finish(): Insights["entities"];
}

export function createEntityStats(business: Business, aspectDefs: readonly AspectDefinition[]): EntityStats {
  const byKind = new Map<Kind, Map<string, Tracked>>(
    KINDS.map((kind) => [
      kind,
      new Map(
        business[kind].map((item, order) => [
          item.id,
          {
            item,
            order,
            totals: { mentions: 0, ratingSum: 0, positive: 0, neutral: 0, negative: 0, aspects: new Map() },
          },
        ]),
      ),
    ]),
  );

  return {
    add(review, annotation) {
      const { scores } = annotation;
      const meanOf = (aspects: Iterable<number>) => {
        let sum = 0;
        let n = 0;
        for (const a of aspects) {
          const s = scores.get(a);
          if (s === undefined) continue;
          sum += s;
          n++;
        }
        return n === 0 ? undefined : sum / n;
      };
      const whole = meanOf(scores.keys()) ?? 0;
      for (const kind of KINDS) {
        for (const id of review[kind]) {
          const tracked = byKind.get(kind)?.get(id);
          if (!tracked) continue;
          const own = meanOf(annotation.entityAspects.get(`${kind}:${id}`) ?? []);
          const t = tracked.totals;
          t.mentions++;
          t.ratingSum += review.rating;
          t[polarity(round(own ?? whole))]++;
          for (const a of scores.keys()) t.aspects.set(a, (t.aspects.get(a) ?? 0) + 1);
        }
      }
    },

    finish() {
      const list = (kind: Kind): EntityInsight[] =>
        [...(byKind.get(kind) as Map<string, Tracked>).values()]
          .sort((a, b) => b.totals.mentions - a.totals.mentions || a.order - b.order)
          .map(({ item, totals: t }) => ({
            id: item.id,
            name: item.name,
            mentions: t.mentions,
            average_rating: mean(t.ratingSum, t.mentions, 2),
            positive: t.positive,
            neutral: t.neutral,
            negative: t.negative,
            net_sentiment: t.mentions === 0 ? null : round((t.positive - t.negative) / t.mentions),
            top_aspects: [...t.aspects]
              .sort(([a, x], [b, y]) => y - x || a - b)
              .slice(0, TOP_ASPECTS)
              .map(([index, reviews]) => {
                const def = aspectDefs[index] as AspectDefinition;
                return { id: def.id, label: def.label, reviews };
              }),
          }));
      return { technicians: list("technicians"), services: list("services"), service_areas: list("service_areas") };
    },
  };
}

/**
 * Per entity a review lists, the aspects read in the clauses that name it (empty if none does):
 * the catalogue's matchers made once, for `ReviewAnnotation.entityAspects`.
 */
export function compileEntityAspects(business: Business) {
  const matchers = new Map<string, Matcher>();
  for (const kind of KINDS)
    for (const item of business[kind] as CatalogueItem[]) matchers.set(`${kind}:${item.id}`, createMatcher([item]));
  return (
    review: Pick<ReviewInput, Kind>,
    clauses: readonly Clause[],
    readings: readonly (readonly AspectReading[])[],
  ): Map<string, Set<number>> => {
    const out = new Map<string, Set<number>>();
    for (const kind of KINDS) {
      for (const id of review[kind]) {
        const matcher = matchers.get(`${kind}:${id}`);
        const found = new Set<number>();
        clauses.forEach((c, k) => {
          if (matcher && matcher.detect(c.text).length > 0) for (const r of readings[k] ?? []) found.add(r.aspect);
        });
        out.set(`${kind}:${id}`, found);
      }
    }
    return out;
  };
}
