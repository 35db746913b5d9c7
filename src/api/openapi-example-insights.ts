import type { ReviewRecord } from "../content/records.ts";
import type { Insights } from "../insights/schema.ts";
import type { ExampleVocabulary } from "./openapi-examples.ts";

/**
 * The `/insights.json` example of `/openapi.json`: the insights of the one made-up review of
 * openapi-examples.ts, written out, so the document does not move with the real figures.
 */
export function exampleInsights(review: ReviewRecord, { business, aspects }: ExampleVocabulary): Insights {
  const aspect = aspects[0];
  const period = (from: string, to: string) => ({ from, to });
  const excerpt = { review_id: review.id, url: review.url, sentence: review.text, score: 0.62 };
  const entity = (e: { id: string; name: string }) => ({
    id: e.id,
    name: e.name,
    mentions: 1,
    average_rating: 5,
    positive: 1,
    neutral: 0,
    negative: 0,
    net_sentiment: 1,
    top_aspects: aspect ? [{ id: aspect.id, label: aspect.label, reviews: 1 }] : [],
  });
  return {
    aspects: aspect
      ? [
          {
            id: aspect.id,
            label: aspect.label,
            mentions: 1,
            reviews: 1,
            share_of_reviews: 1,
            positive: 1,
            neutral: 0,
            negative: 0,
            mean_sentiment: 0.62,
            trend: {
              recent: { ...period("2025-03-03", review.date), mentions: 1, mean_sentiment: 0.62 },
              previous: { ...period("2024-03-03", "2025-03-02"), mentions: 0, mean_sentiment: null },
              change: null,
              direction: null,
            },
            examples: { positive: [excerpt], negative: [] },
          },
        ]
      : [],
    entities: {
      technicians: business.technicians.slice(0, 1).map(entity),
      services: business.services.slice(0, 1).map(entity),
      service_areas: business.service_areas.slice(0, 1).map(entity),
    },
    topics: [{ phrase: "lower back", count: 1, review_ids: [review.id] }],
    faq: [
      {
        question: "Is booking easy?",
        answer: "Reviewers describe booking as easy.",
        evidence: [{ review_id: review.id, url: review.url }],
      },
    ],
    summary: {
      editorial: "Patients praise quick relief and easy booking.",
      highlights: {
        praised: aspect ? [{ id: aspect.id, label: aspect.label, count: 1, mean_sentiment: 0.62 }] : [],
        criticised: [],
        rating_trend: {
          recent: { ...period("2025-03-03", review.date), review_count: 1, rating_value: 5 },
          previous: { ...period("2024-03-03", "2025-03-02"), review_count: 0, rating_value: null },
          change: null,
          direction: null,
        },
      },
      coverage: {
        review_count: 1,
        sentences_analysed: 1,
        first_review_date: review.date,
        newest_review_date: review.date,
      },
    },
  };
}
