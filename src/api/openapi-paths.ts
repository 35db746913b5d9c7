import type { ReviewsDataset } from "../content/records.ts";
import type { SiteUrls } from "../urls.ts";
import type { ApiExamples } from "./openapi-examples.ts";
import {
  body,
  type CachingOptions,
  cachingHeaders,
  conditionalHeaderParameters,
  DYNAMIC_CACHE_CONTROL,
  errorResponse,
  notModified,
  output,
  parameterSchema,
  preconditionHeaderParameters,
  rateLimitHeaders,
  ref,
  STATIC_CACHE_CONTROL,
  sharedResponses,
} from "./openapi-parts.ts";
import { parametersOf, SincePathSchema } from "./parameters.ts";
import { queryConstraints, searchQueryParameters } from "./search-parameters.ts";

/** The path items of `/openapi.json` (openapi.ts assembles them): the data, then the service's own. */

export interface PathContext {
  urls: SiteUrls;
  dataset: Pick<ReviewsDataset, "business" | "aspects">;
  ex: ApiExamples;
}

/** The build's files, search and since. */
export function apiPaths({ dataset, ex }: PathContext): Record<string, unknown> {
  const shared = sharedResponses(ex);
  /** A GET of one of the build's files, with conditional requests. */
  const staticGet = (
    op: { operationId: string; tag: string; summary: string; description: string },
    content: object,
    caching: Omit<CachingOptions, "cacheControl" | "file">,
  ) => {
    const c = { ...caching, cacheControl: STATIC_CACHE_CONTROL, file: true };
    return {
      get: {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        description: op.description,
        parameters: [...conditionalHeaderParameters, ...preconditionHeaderParameters],
        responses: {
          "200": { description: op.summary, headers: { ...cachingHeaders(c), ...rateLimitHeaders }, content },
          "304": notModified(c),
          "412": shared.preconditionFailed,
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
          "429": shared.rateLimited,
        },
      },
    };
  };
  // Every file of the build has a Last-Modified: when its bytes last changed (docs/api.md).
  const topic = { lastModified: true, link: true };
  // Each operation's example is its own real answer: since takes no search parameter.
  const badRequest = (example: object) =>
    errorResponse(
      "Invalid parameters; each issue names the parameter, the value and what is valid.",
      example,
      rateLimitHeaders,
      "InvalidRequest",
    );
  const searchCaching = { cacheControl: DYNAMIC_CACHE_CONTROL, lastModified: false, link: false, file: false };
  const sinceCaching = { cacheControl: DYNAMIC_CACHE_CONTROL, lastModified: true, link: false, file: false };
  const search = searchQueryParameters(dataset, parameterSchema, ex.searchParams);

  return {
    "/reviews.json": staticGet(
      {
        operationId: "getReviewsDataset",
        tag: "reviews",
        summary: "The business, its aggregate rating and every review",
        description: "Static file; a WebSub topic.",
      },
      body(ref("ReviewsDataset"), ex.dataset),
      topic,
    ),
    "/insights.json": staticGet(
      {
        operationId: "getInsights",
        tag: "insights",
        summary: "Aspect sentiment, entities, topics, FAQ and summary",
        description: "Computed at build time from the published reviews.",
      },
      body(ref("Insights"), ex.insights),
      { lastModified: true, link: false },
    ),
    "/api/feed.json": staticGet(
      {
        operationId: "getJsonFeed",
        tag: "feeds",
        summary: "JSON Feed 1.1 of the 50 most recently published reviews",
        description:
          "See https://jsonfeed.org/version/1.1. Newest `published_at` first, so a review added late is listed. Items carry a `_review` extension: `about` (this document), and the review record's rating, technicians, services, service_areas, aspects, log_index and log_nonce (its latest entry in the review log at /log/, and that entry's nonce). A WebSub topic.",
      },
      body(ref("JsonFeed"), ex.jsonFeed),
      topic,
    ),
    "/feed.xml": staticGet(
      {
        operationId: "getAtomFeed",
        tag: "feeds",
        summary: "Atom (RFC 4287) feed of the 50 most recently published reviews",
        description: "Newest `published_at` first, so a review added late is listed. A WebSub topic.",
      },
      body({ type: "string" }, ex.atomFeed, "application/atom+xml"),
      topic,
    ),
    "/openapi.json": staticGet(
      {
        operationId: "getOpenApiDocument",
        tag: "meta",
        summary: "This document",
        description:
          "OpenAPI 3.1; typed here by its common fields, in full by the official schema https://spec.openapis.org/oas/3.1/schema/2022-10-07.",
      },
      body(ref("OpenApiDocument"), ex.openapi),
      { lastModified: true, link: false },
    ),
    "/api/reviews/search": {
      get: {
        operationId: "searchReviews",
        tags: ["reviews"],
        summary: "Search reviews",
        description:
          "All filters combine with AND; every parameter is optional. An unknown or repeated parameter is refused with 400, so a typo is never silently ignored, and `sentiment` requires `aspect` (both are stated for tools in `x-query-constraints`). Numbers are written as JSON numbers. Results are newest first; `next` links the following page. Conditional requests use If-None-Match.",
        "x-query-constraints": search.constraints,
        parameters: [...search.parameters, conditionalHeaderParameters[0], preconditionHeaderParameters[0]],
        responses: {
          "200": {
            description: "Matching reviews",
            headers: { ...cachingHeaders(searchCaching), ...rateLimitHeaders },
            content: body(ref("SearchResult"), ex.search),
          },
          "304": notModified(searchCaching),
          "400": badRequest(ex.invalidQuery),
          "412": shared.preconditionFailed,
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
          "429": shared.rateLimited,
        },
      },
    },
    "/api/reviews/since/{date}": {
      get: {
        operationId: "getReviewsSince",
        tags: ["reviews"],
        summary: "Reviews dated on or after a day",
        description:
          "Takes no query parameters: any is refused with 400 (`x-query-constraints`). Supports conditional GET (RFC 9110): If-None-Match (lists, *, weak comparison) takes precedence over If-Modified-Since. The ETag changes exactly when the body would.",
        "x-query-constraints": queryConstraints({}),
        parameters: [
          ...parametersOf(SincePathSchema, "path", output).map((p) => ({ ...p, example: ex.sinceDate })),
          ...conditionalHeaderParameters,
          ...preconditionHeaderParameters,
        ],
        responses: {
          "200": {
            description: "Reviews since the date",
            headers: { ...cachingHeaders(sinceCaching), ...rateLimitHeaders },
            content: body(ref("SinceResult"), ex.since),
          },
          "304": notModified(sinceCaching),
          "400": badRequest(ex.invalidSince),
          "412": shared.preconditionFailed,
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
          "429": shared.rateLimited,
        },
      },
    },
  };
}
