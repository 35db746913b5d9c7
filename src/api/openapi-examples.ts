import type { AspectRef, Business, ReviewRecord, ReviewsDataset } from "../content/records.ts";
import { renderAtomFeed } from "../feeds/atom.ts";
import { UNCHANGED } from "../feeds/entries.ts";
import { renderJsonFeed } from "../feeds/json-feed.ts";
import { parseSearchParams } from "../search/query.ts";
import { invalidQueryBody, sinceIssues } from "../search/query-service.ts";
import type { SiteUrls } from "../urls.ts";
import { exampleInsights } from "./openapi-example-insights.ts";

/**
 * Examples for `/openapi.json`. They are fixed: one made-up review, not the newest real one, so
 * the document (and its ETag) changes only when the contract does, never when a review is added
 * or edited. Ids that must be valid values (a service, an aspect, a technician) come from the
 * catalogue and the aspect list, which the parameters' `enum`s depend on anyway. The tests
 * validate each example against the schema it illustrates.
 */

export interface ApiExamples {
  dataset: object;
  insights: object;
  jsonFeed: object;
  atomFeed: string;
  openapi: object;
  search: object;
  since: object;
  /** One valid value per search parameter, by name. */
  searchParams: Record<string, unknown>;
  sinceDate: string;
  invalidQuery: object;
  /** since/{date}'s own 400: a day that does not exist, and a query parameter it does not take. */
  invalidSince: object;
  notFound: object;
  uriTooLong: object;
  rateLimited: object;
  readiness: { reviews: number; version: string; build: string };
}

/** The vocabulary the examples may name: the catalogue and the aspects, not the reviews. */
export interface ExampleVocabulary {
  business: Business;
  aspects: readonly AspectRef[];
}

const EXAMPLE_DATE = "2026-03-02";

/** A review as the service publishes one, made up for the document. */
export function exampleReview({ business, aspects }: ExampleVocabulary, urls: SiteUrls): ReviewRecord {
  const id = `${EXAMPLE_DATE}-jordan-m`;
  const aspect = aspects[0];
  return {
    id,
    url: `${urls.base}/reviews/${id}/`,
    date: EXAMPLE_DATE,
    published_at: `${EXAMPLE_DATE}T17:45:00Z`,
    rating: 5,
    author: "Jordan M.",
    title: "Back on the trail after two visits",
    text: "Booking was easy and the adjustment helped my lower back within a week.",
    source: { platform: "direct", url: null },
    verification: { method: "invoice", verified_on: EXAMPLE_DATE },
    technicians: business.technicians.slice(0, 1).map((t) => t.id),
    services: business.services.slice(0, 1).map((s) => s.id),
    service_areas: business.service_areas.slice(0, 1).map((a) => a.id),
    response: null,
    log_index: 41,
    // A fixed, made-up nonce: an example opens no real entry.
    log_nonce: "3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    aspects: aspect ? [{ id: aspect.id, sentiment: "positive", score: 0.62, source: "machine" }] : [],
  };
}

export function apiExamples(vocabulary: ExampleVocabulary, urls: SiteUrls, version: string): ApiExamples {
  const { business, aspects } = vocabulary;
  const review = exampleReview(vocabulary, urls);
  const dataset: ReviewsDataset = {
    business,
    aggregate_rating: {
      rating_value: 5,
      review_count: 1,
      best_rating: 5,
      worst_rating: 1,
      distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 1 },
    },
    aspects: [...aspects],
    reviews: [review],
  };
  const aspect = aspects[0]?.id;
  const technician = business.technicians[0];
  const searchParams: Record<string, unknown> = {
    rating: 5,
    min_rating: 4,
    since: "2026-01-01",
    until: "2026-12-31",
    query: "front desk",
    ...(technician ? { mentions_technician: technician.name } : {}),
    ...(business.services[0] ? { mentions_service: business.services[0].id } : {}),
    ...(aspect ? { aspect } : {}),
    sentiment: "positive",
    limit: 20,
    offset: 0,
  };
  const refused = parseSearchParams({ rating: "9", sort: "new" }, "query-string", business, aspects);
  return {
    dataset,
    insights: exampleInsights(review, vocabulary),
    jsonFeed: JSON.parse(renderJsonFeed(business, [review], urls, UNCHANGED)),
    atomFeed: renderAtomFeed(business, [review], urls, UNCHANGED),
    openapi: { openapi: "3.1.0", info: { title: "public-reviews API", version }, paths: {} },
    search: {
      reviews: [review],
      count: 1,
      total: 3,
      limit: 1,
      offset: 0,
      next: `${urls.search}?min_rating=4&limit=1&offset=1`,
    },
    since: { since: EXAMPLE_DATE, count: 1, reviews: [review] },
    searchParams,
    sinceDate: EXAMPLE_DATE,
    invalidQuery: refused.ok ? {} : invalidQueryBody(refused.issues),
    invalidSince: invalidQueryBody(sinceIssues("2026-02-30", { rating: "5" })),
    notFound: { error: "not_found", message: "No resource at /api/nothing" },
    uriTooLong: { error: "uri_too_long", message: "The URL is 5000 characters; the limit is 4096." },
    rateLimited: { error: "rate_limited", message: "Too many requests: the limit is 600 per minute per client." },
    readiness: {
      reviews: 1200,
      version: '"n3qT7cH1m9xQ2bYkA5s0Lw"',
      build: "3f1c2a9d8b7e6f5a4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a2918f7e6d5c",
    },
  };
}
