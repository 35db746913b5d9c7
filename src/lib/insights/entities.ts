import type { CatalogueItem } from "../content-schema.ts";
import { createMatcher, type Matcher } from "../mentions.ts";
import type { Business, ReviewRecord } from "../records.ts";
import type { AspectDefinition } from "./content-schema.ts";
import type { Clause } from "./nlp.ts";
import { mean, polarity, round } from "./numbers.ts";
import type { EntityInsight, Insights } from "./schema.ts";

/**
 * Technicians, services and service areas as the reviews see them. A review mentions an entity
 * when its record lists the id (explicit, or detected in the text by `mentions.ts`).
 *
 * Sentiment about an entity in one review is the mean score of the clauses that name it; when no
 * clause names it (the id was given explicitly, or only the title named it in passing) the mean of
 * all the review's clauses stands in. That review-level score is classified positive, neutral or
 * negative, and `net_sentiment = (positive - negative) / mentions`.
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
  matcher: Matcher;
  totals: Totals;
}

export interface EntityStats {
  /** `aspects`: indexes of every aspect the review mentions anywhere. */
  add(review: ReviewRecord, clauses: readonly Clause[], aspects: ReadonlySet<number>): void;
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
            matcher: createMatcher([item]),
            totals: { mentions: 0, ratingSum: 0, positive: 0, neutral: 0, negative: 0, aspects: new Map() },
          },
        ]),
      ),
    ]),
  );

  return {
    add(review, clauses, aspects) {
      let whole: number | undefined;
      for (const kind of KINDS) {
        for (const id of review[kind]) {
          const tracked = byKind.get(kind)?.get(id);
          if (!tracked) continue;
          let sum = 0;
          let n = 0;
          for (const c of clauses) {
            if (tracked.matcher.detect(c.text).length > 0) {
              sum += c.score;
              n++;
            }
          }
          if (n === 0) {
            whole ??= clauses.length === 0 ? 0 : clauses.reduce((s, c) => s + c.score, 0) / clauses.length;
          }
          const t = tracked.totals;
          t.mentions++;
          t.ratingSum += review.rating;
          t[polarity(n === 0 ? (whole as number) : sum / n)]++;
          for (const a of aspects) t.aspects.set(a, (t.aspects.get(a) ?? 0) + 1);
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
