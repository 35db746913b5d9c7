import { z } from "zod";
import { CalendarDate, Id } from "../content/schema.ts";

/**
 * Shape of `/insights.json`, the `get_insights` MCP tool and the insights resource. The types below
 * are inferred from these schemas and `/openapi.json` plus the MCP `outputSchema` are generated from
 * them, so the published shape has exactly one definition.
 */

const Score = z.number().min(-1).max(1);
const Count = z.number().int().min(0);

export const InsightsExampleSchema = z
  .object({
    review_id: Id.describe("Id of the review the excerpt comes from."),
    url: z.string().describe("Permalink of that review on the HTML site."),
    sentence: z
      .string()
      .describe(
        'The sentence containing the mention, whitespace collapsed; a longer one than 300 characters is cut around the clause quoted, with "…" where it was cut.',
      ),
    score: Score.describe("Sentiment of the clause that mentions the aspect, in [-1, 1], 3 decimals."),
  })
  .meta({ id: "InsightsExample" });

const PeriodSchema = z.object({
  from: CalendarDate.describe("First day of the period, inclusive."),
  to: CalendarDate.describe("Last day of the period, inclusive."),
});

const Direction = z
  .enum(["up", "down", "flat"])
  .nullable()
  .describe("Sign of `change` beyond a small dead band; null when either period has no data.");

// Named `mentions` since the first release; it counts reviews, which the field's own words must say.
const PeriodReviews = Count.describe(
  "Reviews dated in the period that discuss the aspect (not clauses, unlike the aspect's `mentions`).",
);

export const AspectTrendSchema = z
  .object({
    recent: PeriodSchema.extend({
      mentions: PeriodReviews,
      mean_sentiment: Score.nullable().describe("Null when the period has no mentions."),
    }).describe("The 12 months ending on the newest review date."),
    previous: PeriodSchema.extend({ mentions: PeriodReviews, mean_sentiment: Score.nullable() }).describe(
      "The 12 months before that.",
    ),
    change: z.number().nullable().describe("recent.mean_sentiment - previous.mean_sentiment, 3 decimals."),
    direction: Direction.describe("up/down when |change| >= 0.05, else flat; null when a period has no mentions."),
  })
  .meta({ id: "InsightsAspectTrend" });

export const AspectInsightSchema = z
  .object({
    id: Id.describe("Aspect id from content/insights/aspects.yaml."),
    label: z.string(),
    mentions: Count.describe("Clauses that mention the aspect (a review can mention it several times)."),
    reviews: Count.describe("Distinct reviews that mention the aspect."),
    share_of_reviews: z.number().min(0).max(1).describe("reviews / total reviews, 3 decimals."),
    positive: Count.describe(
      "Reviews whose annotation for this aspect is positive (the `aspect`+`sentiment` search total).",
    ),
    neutral: Count.describe("Reviews whose annotation for this aspect is neutral."),
    negative: Count.describe("Reviews whose annotation for this aspect is negative."),
    mean_sentiment: Score.nullable().describe(
      "Mean of the reviews' scores for this aspect; null when no review discusses it.",
    ),
    trend: AspectTrendSchema.nullable().describe("Null only when there are no reviews at all."),
    examples: z.object({
      positive: z
        .array(InsightsExampleSchema)
        .max(3)
        .describe("Up to 3 most positive mentions, distinct reviews and wordings."),
      negative: z
        .array(InsightsExampleSchema)
        .max(3)
        .describe("Up to 3 most negative mentions, distinct reviews and wordings."),
    }),
  })
  .meta({ id: "InsightsAspect" });

export const EntityInsightSchema = z
  .object({
    id: Id.describe("Catalogue id from content/business.yaml."),
    name: z.string(),
    mentions: Count.describe("Reviews whose record lists this id (explicit or detected in the text)."),
    average_rating: z.number().nullable().describe("Mean star rating of those reviews, 2 decimals; null if none."),
    positive: Count.describe("Mentioning reviews whose sentiment about the entity is positive."),
    neutral: Count,
    negative: Count,
    net_sentiment: Score.nullable().describe("(positive - negative) / mentions, 3 decimals; null if none."),
    top_aspects: z
      .array(z.object({ id: Id, label: z.string(), reviews: Count }))
      .max(3)
      .describe("Aspects most often mentioned in the same reviews, by review count."),
  })
  .meta({ id: "InsightsEntity" });

export const TopicSchema = z
  .object({
    phrase: z.string().describe("The key phrase as first written in the newest review using it, lowercased."),
    count: Count.describe("Reviews containing the phrase (any inflection)."),
    review_ids: z.array(Id).describe("Those reviews, newest first, at most 100."),
  })
  .meta({ id: "InsightsTopic" });

export const FaqEntrySchema = z
  .object({
    question: z.string(),
    answer: z.string(),
    evidence: z
      .array(z.object({ review_id: Id, url: z.string().describe("Permalink of the review.") }))
      .max(100)
      // Each review once: the content check refuses a repeated id (src/insights/content-schema.ts).
      .meta({ uniqueItems: true })
      .describe("Reviews the answer rests on, each once, at most 100; every id is checked at build time."),
  })
  .meta({ id: "InsightsFaqEntry" });

const HighlightSchema = z.object({
  id: Id,
  label: z.string(),
  count: Count.describe("Positive (praised) or negative (criticised) mentions."),
  mean_sentiment: Score.nullable(),
});

export const RatingTrendSchema = z
  .object({
    recent: PeriodSchema.extend({
      review_count: Count,
      rating_value: z.number().nullable().describe("Mean rating, 2 decimals; null without reviews."),
    }),
    previous: PeriodSchema.extend({ review_count: Count, rating_value: z.number().nullable() }),
    change: z.number().nullable().describe("recent.rating_value - previous.rating_value, 2 decimals."),
    direction: Direction.describe("up/down when |change| >= 0.1 stars, else flat; null when a period is empty."),
  })
  .meta({ id: "InsightsRatingTrend" });

export const SummarySchema = z
  .object({
    editorial: z
      .string()
      .describe("Editorial text from content/insights/summary.md (paragraphs split by blank lines)."),
    highlights: z.object({
      praised: z.array(HighlightSchema).max(3).describe("Aspects with the most positive mentions."),
      criticised: z.array(HighlightSchema).max(3).describe("Aspects with the most negative mentions."),
      rating_trend: RatingTrendSchema.nullable().describe("Null only when there are no reviews."),
    }),
    coverage: z.object({
      review_count: Count,
      sentences_analysed: Count,
      first_review_date: CalendarDate.nullable(),
      newest_review_date: CalendarDate.nullable().describe("Trend periods are measured back from this date."),
    }),
  })
  .meta({ id: "InsightsSummary" });

export const InsightsSchema = z
  .object({
    aspects: z.array(AspectInsightSchema).describe("One entry per editorial aspect, in aspects.yaml order."),
    entities: z.object({
      technicians: z.array(EntityInsightSchema).describe("Most mentioned first, then catalogue order."),
      services: z.array(EntityInsightSchema),
      service_areas: z.array(EntityInsightSchema),
    }),
    topics: z.array(TopicSchema).max(20).describe("Recurring key phrases beyond the aspects, highest count first."),
    faq: z.array(FaqEntrySchema).describe("Editorial questions and answers from content/insights/faq.yaml."),
    summary: SummarySchema,
  })
  // The description goes inside meta: a later `.describe()` would clone the schema and drop the id.
  .meta({
    id: "Insights",
    description: "Aspect sentiment, entities, topics, FAQ and summary computed at build time from the reviews.",
  });

export type Insights = z.infer<typeof InsightsSchema>;
export type AspectInsight = z.infer<typeof AspectInsightSchema>;
export type EntityInsight = z.infer<typeof EntityInsightSchema>;
export type InsightsExample = z.infer<typeof InsightsExampleSchema>;
export type Topic = z.infer<typeof TopicSchema>;
export type FaqEntry = z.infer<typeof FaqEntrySchema>;
export type Summary = z.infer<typeof SummarySchema>;
export type RatingTrend = z.infer<typeof RatingTrendSchema>;
