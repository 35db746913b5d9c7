import type { ReviewsDataset } from "../content/records.ts";
import { renderAtomFeed } from "../feeds/atom.ts";
import { renderJsonFeed } from "../feeds/json-feed.ts";
import type { Insights } from "../insights/schema.ts";
import { parseSearchParams } from "../search/query.ts";
import { invalidQueryBody } from "../search/query-service.ts";
import type { SiteUrls } from "../urls.ts";

/**
 * Examples for `/openapi.json`, made from the build's own content, so every example is a real
 * answer of this service (the newest review, the real error wording) rather than prose that can go
 * stale. Arrays are cut to their first entries to keep the document small; the tests validate each
 * example against the schema it illustrates.
 */

/** Cuts every array in `value` to its first `n` entries, at any depth. */
function firstOf<T>(value: T, n: number): T {
  if (Array.isArray(value)) return value.slice(0, n).map((v) => firstOf(v, n)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstOf(v, n)])) as T;
  }
  return value;
}

export interface ApiExamples {
  dataset: object;
  insights: object;
  jsonFeed: object;
  atomFeed: string;
  openapi: object;
  search: object;
  since: object;
  searchQuery: Record<string, unknown>;
  sinceDate: string;
  invalidQuery: object;
  notFound: object;
  uriTooLong: object;
  rateLimited: object;
}

export function apiExamples(dataset: ReviewsDataset, insights: Insights, urls: SiteUrls, version: string): ApiExamples {
  const { business, aspects, reviews } = dataset;
  const newest = reviews.slice(0, 1);
  const first = reviews[0];
  const sinceDate = first?.date ?? "2026-01-01";
  const inRange = reviews.filter((r) => r.date >= sinceDate);
  const aspect = aspects[0]?.id;
  const searchQuery: Record<string, unknown> = {
    min_rating: 4,
    ...(aspect ? { aspect, sentiment: "positive" } : {}),
    limit: 1,
  };
  const refused = parseSearchParams({ rating: "9", sort: "new" }, business, aspects);
  return {
    dataset: { ...dataset, reviews: newest },
    insights: firstOf(insights, 1),
    jsonFeed: JSON.parse(renderJsonFeed(business, newest, urls)),
    atomFeed: renderAtomFeed(business, newest, urls),
    openapi: { openapi: "3.1.0", info: { title: "public-reviews API", version }, paths: {} },
    search: {
      reviews: newest,
      count: newest.length,
      total: reviews.length,
      limit: 1,
      offset: 0,
      next: reviews.length > 1 ? `${urls.search}?limit=1&offset=1` : null,
    },
    since: { since: sinceDate, count: inRange.length, reviews: inRange },
    searchQuery,
    sinceDate,
    invalidQuery: refused.ok ? {} : invalidQueryBody(refused.issues),
    notFound: { error: "not_found", message: "No resource at /api/nothing" },
    uriTooLong: { error: "uri_too_long", message: "The URL is 5000 characters; the limit is 4096." },
    rateLimited: { error: "rate_limited", message: "Too many requests: the limit is 600 per minute per client." },
  };
}
