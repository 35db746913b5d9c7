import type { ReviewsDataset } from "../content/records.ts";
import type { SiteUrls } from "../urls.ts";
import { HubRequestSchema } from "./hub-request.ts";
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
  rateLimitHeaders,
  ref,
  STATIC_CACHE_CONTROL,
  sharedResponses,
  toJsonSchema,
} from "./openapi-parts.ts";
import { parametersOf, SincePathSchema } from "./parameters.ts";
import { searchParamsJsonSchema } from "./search-parameters.ts";

/** The path items of `/openapi.json` (openapi.ts assembles them): the data, then the service's own. */

export interface PathContext {
  urls: SiteUrls;
  dataset: ReviewsDataset;
  ex: ApiExamples;
}

/** The build's files, search and since. */
export function apiPaths({ dataset, ex }: PathContext): Record<string, unknown> {
  const shared = sharedResponses(ex);
  /** A GET of one of the build's files, with conditional requests. */
  const staticGet = (
    op: { operationId: string; tag: string; summary: string; description: string },
    content: object,
    caching: Omit<CachingOptions, "cacheControl">,
  ) => {
    const c = { ...caching, cacheControl: STATIC_CACHE_CONTROL };
    return {
      get: {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        description: op.description,
        parameters: conditionalHeaderParameters,
        responses: {
          "200": { description: op.summary, headers: { ...cachingHeaders(c), ...rateLimitHeaders }, content },
          "304": notModified(c),
          "414": shared.uriTooLong,
          "429": shared.rateLimited,
        },
      },
    };
  };
  // Last-Modified is the newest review's date: a build without reviews has none to send.
  const dated = dataset.reviews.length > 0;
  const topic = { lastModified: dated, link: true };
  const badRequest = errorResponse(
    "Invalid parameters; each issue names the parameter, the value and what is valid.",
    ex.invalidQuery,
  );
  const searchCaching = { cacheControl: DYNAMIC_CACHE_CONTROL, lastModified: false, link: false };
  const sinceCaching = { cacheControl: DYNAMIC_CACHE_CONTROL, lastModified: dated, link: false };

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
      { lastModified: dated, link: false },
    ),
    "/api/feed.json": staticGet(
      {
        operationId: "getJsonFeed",
        tag: "feeds",
        summary: "JSON Feed 1.1 of the 50 newest reviews",
        description:
          "See https://jsonfeed.org/version/1.1. Items carry a `_review` extension with rating, technicians, services, service_areas and aspects. A WebSub topic.",
      },
      body(ref("JsonFeed"), ex.jsonFeed),
      topic,
    ),
    "/feed.xml": staticGet(
      {
        operationId: "getAtomFeed",
        tag: "feeds",
        summary: "Atom (RFC 4287) feed of the 50 newest reviews",
        description: "A WebSub topic.",
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
      { lastModified: false, link: false },
    ),
    "/api/reviews/search": {
      get: {
        operationId: "searchReviews",
        tags: ["reviews"],
        summary: "Search reviews",
        description:
          "All filters combine with AND. The parameters are one query object (form style, exploded: `?min_rating=4&limit=1`): an unknown or repeated parameter is an error, so a typo is never silently ignored. Numbers are written as JSON numbers. Results are newest first; `next` links the following page. Conditional requests use If-None-Match.",
        parameters: [
          {
            name: "filters",
            in: "query",
            style: "form",
            explode: true,
            required: false,
            description: "The search parameters; all optional.",
            schema: searchParamsJsonSchema(dataset, parameterSchema),
            example: ex.searchQuery,
          },
          conditionalHeaderParameters[0],
        ],
        responses: {
          "200": {
            description: "Matching reviews",
            headers: { ...cachingHeaders(searchCaching), ...rateLimitHeaders },
            content: body(ref("SearchResult"), ex.search),
          },
          "304": notModified(searchCaching),
          "400": badRequest,
          "414": shared.uriTooLong,
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
          "Takes no query parameters. Supports conditional GET (RFC 9110): If-None-Match (lists, *, weak comparison) takes precedence over If-Modified-Since. The ETag changes exactly when the body would.",
        parameters: [
          ...parametersOf(SincePathSchema, "path", output).map((p) => ({ ...p, example: ex.sinceDate })),
          {
            name: "none",
            in: "query",
            style: "form",
            explode: true,
            required: false,
            description: "since takes no query parameters: any is refused with 400.",
            schema: { type: "object", additionalProperties: false },
            example: {},
          },
          ...conditionalHeaderParameters,
        ],
        responses: {
          "200": {
            description: "Reviews since the date",
            headers: { ...cachingHeaders(sinceCaching), ...rateLimitHeaders },
            content: body(ref("SinceResult"), ex.since),
          },
          "304": notModified(sinceCaching),
          "400": badRequest,
          "414": shared.uriTooLong,
          "429": shared.rateLimited,
        },
      },
    },
  };
}

/** The hub and the health checks. */
export function servicePaths({ urls, dataset, ex }: PathContext): Record<string, unknown> {
  const shared = sharedResponses(ex);
  const { $schema: _h, ...hubSchema } = toJsonSchema(HubRequestSchema, "input");
  return {
    "/api/websub/hub": {
      post: {
        operationId: "postWebSubHub",
        tags: ["websub"],
        summary: "WebSub hub: subscribe, unsubscribe, publish",
        description:
          "W3C WebSub hub for the three topics. Subscriptions need an https callback and are verified asynchronously (GET with hub.challenge). Differs from the Recommendation in one way: a subscription is removed after 3 consecutive failed deliveries. Answers are plain text.",
        requestBody: {
          required: true,
          content: body(
            hubSchema,
            {
              "hub.mode": "subscribe",
              "hub.topic": urls.atomFeed,
              "hub.callback": "https://subscriber.example/websub/callback",
            },
            "application/x-www-form-urlencoded",
          ),
        },
        responses: {
          "202": {
            description: "Accepted; verification (or distribution) happens asynchronously.",
            content: body(
              { type: "string" },
              "Accepted: verification of intent for subscribe will follow.",
              "text/plain",
            ),
          },
          "400": {
            description: "Invalid request; the body says which field and why.",
            content: body({ type: "string" }, "hub.callback: must be an https URL", "text/plain"),
          },
          "415": {
            description: "Not application/x-www-form-urlencoded.",
            content: body(
              { type: "string" },
              "The hub accepts application/x-www-form-urlencoded bodies only, got application/json.",
              "text/plain",
            ),
          },
          "429": {
            description: "Too many hub requests from this client; retry after Retry-After seconds.",
            headers: {
              "Retry-After": { required: true, schema: { type: "integer" }, example: 42 },
              ...rateLimitHeaders,
            },
            content: body(
              { type: "string" },
              "Too many hub requests: the limit is 60 per minute per client.",
              "text/plain",
            ),
          },
        },
      },
    },
    "/healthz": {
      get: {
        operationId: "getReadiness",
        tags: ["meta"],
        summary: "Readiness",
        description:
          "For load balancers: 200 while this instance can serve everything, 503 when DATABASE_URL is set and the database does not answer. Not rate limited.",
        responses: {
          "200": {
            description: "Serving a dataset; with DATABASE_URL, the shared database answers too.",
            content: body(ref("Readiness"), {
              status: "ok",
              reviews: dataset.reviews.length,
              version: '"n3qT7cH1m9xQ2bYkA5s0Lw"',
            }),
          },
          "414": shared.uriTooLong,
          "503": {
            description: "DATABASE_URL is set and the database does not answer: reads still work.",
            content: body(ref("Readiness"), {
              status: "degraded",
              database: "unreachable",
              reviews: dataset.reviews.length,
              version: '"n3qT7cH1m9xQ2bYkA5s0Lw"',
            }),
          },
        },
      },
    },
    "/livez": {
      get: {
        operationId: "getLiveness",
        tags: ["meta"],
        summary: "Liveness",
        description:
          "For supervisors: 200 while the process answers HTTP, whatever the database does. Not rate limited.",
        responses: {
          "200": { description: "The process answers HTTP.", content: body(ref("Liveness"), { status: "ok" }) },
          "414": shared.uriTooLong,
        },
      },
    },
  };
}
