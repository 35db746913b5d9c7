import { z } from "zod";
import { ReviewsDatasetSchema } from "../content/records.ts";
import { InsightsSchema } from "../insights/schema.ts";
import { SearchParamsSchema } from "../search/query.ts";
import type { SiteUrls } from "../urls.ts";
import { HubRequestSchema } from "./hub-request.ts";
import { ConditionalGetHeadersSchema, parametersOf, SincePathSchema } from "./parameters.ts";
import { ApiErrorSchema, SearchResultSchema, SinceResultSchema } from "./schemas.ts";

/**
 * The OpenAPI 3.1 description, generated from the same zod schemas the code validates with, so the
 * document cannot drift from the behaviour. Pure: the build passes the URLs in. Linted in the test
 * suite with Spectral's `spectral:oas` and Redocly's recommended rules (docs/api.md, "OpenAPI").
 */

/** Bumped with every change to the document: 1.1.0 named the operations and tagged them. */
export const API_VERSION = "1.1.0";

/**
 * `z.number().int()` says "safe integer" as ±2^53-1 bounds, which linters and generators take
 * for real limits; the schemas state the bounds that matter (counts ≥ 0, limit ≤ 100) themselves.
 */
const dropSafeIntegerBounds = ({ jsonSchema: s }: { jsonSchema: Record<string, unknown> }) => {
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
};
const toJsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }) as Record<string, unknown>;

const TAGS = [
  { name: "reviews", description: "The reviews: the full dataset, search and incremental fetch." },
  { name: "insights", description: "Aspect sentiment, entities, topics and FAQ computed from the reviews." },
  { name: "feeds", description: "Atom and JSON Feed of the newest reviews; WebSub topics." },
  { name: "websub", description: "The WebSub hub for push updates of the feeds and the dataset." },
  { name: "mcp", description: "Model Context Protocol endpoint for AI assistants." },
  { name: "meta", description: "This document and the health check." },
];

const output = (schema: z.ZodType) => toJsonSchema(schema, "output");
const conditionalHeaders = parametersOf(ConditionalGetHeadersSchema, "header", output);

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: object) => ({ "application/json": { schema } });

const cacheHeaders = {
  ETag: { description: "Strong validator of the exact bytes.", schema: { type: "string" } },
  "Last-Modified": {
    description: "Newest published_at or owner-response date in the dataset.",
    schema: { type: "string" },
  },
  "Cache-Control": { schema: { type: "string" } },
};
const topicHeaders = {
  ...cacheHeaders,
  Link: { description: 'WebSub discovery: <hub>; rel="hub", <topic>; rel="self".', schema: { type: "string" } },
};
const notModified = { description: "Not modified (If-None-Match or If-Modified-Since matched)." };
const badRequest = {
  description: "Invalid parameters; each issue names the parameter, the value and what is valid.",
  content: json(ref("Error")),
};
const uriTooLong = {
  description: "The URL is longer than 4096 characters.",
  content: json(ref("Error")),
};
const rateLimited = {
  description: "Too many requests from this client; retry after the number of seconds in Retry-After.",
  headers: { "Retry-After": { schema: { type: "integer" } } },
  content: json(ref("Error")),
};

interface Operation {
  operationId: string;
  tag: string;
}

function staticGet(op: Operation, summary: string, description: string, content: object, headers: object) {
  return {
    get: {
      operationId: op.operationId,
      tags: [op.tag],
      summary,
      description,
      parameters: conditionalHeaders,
      responses: { "200": { description: summary, headers, content }, "304": notModified, "429": rateLimited },
    },
  };
}

/** Who answers questions about the API: the practice, by default via its reviews home page. */
export interface ApiContact {
  name: string;
  url: string;
  email?: string;
}

export function buildOpenApi(urls: SiteUrls, contact?: ApiContact): Record<string, unknown> {
  const components = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }).schemas;
  // Only the schemas this API uses, in a stable order.
  const wanted = [ReviewsDatasetSchema, SearchResultSchema, SinceResultSchema, ApiErrorSchema, InsightsSchema];
  const ids = new Set<string>();
  const collect = (s: unknown) => {
    for (const m of JSON.stringify(s).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g)) {
      if (!ids.has(m[1] as string)) {
        ids.add(m[1] as string);
        collect(components[m[1] as string]);
      }
    }
  };
  for (const s of wanted) {
    const id = z.globalRegistry.get(s)?.id as string;
    ids.add(id);
    collect(components[id]);
  }
  const schemas = Object.fromEntries(
    [...ids].sort().map((id) => {
      // A `$id` with a fragment is invalid in JSON Schema 2020-12; components are named by their key.
      const { $schema: _drop, $id: _id, ...rest } = components[id] as Record<string, unknown>;
      return [id, rest];
    }),
  );

  const searchParams = parametersOf(SearchParamsSchema, "query", output);
  const { $schema: _h, ...hubSchema } = toJsonSchema(HubRequestSchema, "input");

  return {
    openapi: "3.1.0",
    info: {
      title: "public-reviews API",
      version: API_VERSION,
      description:
        "Read-only public API of verified customer reviews and aspect-based insights. No key, account or SDK is needed; an Authorization header is ignored. JSON fields are snake_case.",
      license: { name: "MIT", identifier: "MIT" },
      contact: contact ?? { name: "public-reviews", url: urls.home },
    },
    servers: [{ url: urls.base }],
    // Public and read-only: no operation takes credentials.
    security: [],
    tags: TAGS,
    paths: {
      "/reviews.json": staticGet(
        { operationId: "getReviewsDataset", tag: "reviews" },
        "The business, its aggregate rating and every review",
        "Static file; a WebSub topic.",
        json(ref("ReviewsDataset")),
        topicHeaders,
      ),
      "/insights.json": staticGet(
        { operationId: "getInsights", tag: "insights" },
        "Aspect sentiment, entities, topics, FAQ and summary",
        "Computed at build time from the published reviews.",
        json(ref("Insights")),
        cacheHeaders,
      ),
      "/api/feed.json": staticGet(
        { operationId: "getJsonFeed", tag: "feeds" },
        "JSON Feed 1.1 of the 50 newest reviews",
        "See https://jsonfeed.org/version/1.1. Items carry a `_review` extension with rating, technicians, services, service_areas and aspects. A WebSub topic.",
        { "application/json": { schema: { type: "object", description: "A JSON Feed 1.1 document." } } },
        topicHeaders,
      ),
      "/feed.xml": staticGet(
        { operationId: "getAtomFeed", tag: "feeds" },
        "Atom (RFC 4287) feed of the 50 newest reviews",
        "A WebSub topic.",
        { "application/atom+xml": { schema: { type: "string" } } },
        topicHeaders,
      ),
      "/openapi.json": staticGet(
        { operationId: "getOpenApiDocument", tag: "meta" },
        "This document",
        "OpenAPI 3.1.",
        json({ type: "object" }),
        cacheHeaders,
      ),
      "/api/reviews/search": {
        get: {
          operationId: "searchReviews",
          tags: ["reviews"],
          summary: "Search reviews",
          description:
            "All filters combine with AND. Unknown or repeated parameters are errors, so a typo is never silently ignored. Results are newest first; `next` links the following page.",
          parameters: searchParams,
          responses: {
            "200": { description: "Matching reviews", headers: cacheHeaders, content: json(ref("SearchResult")) },
            "304": notModified,
            "400": badRequest,
            "429": rateLimited,
          },
        },
      },
      "/api/reviews/since/{date}": {
        get: {
          operationId: "getReviewsSince",
          tags: ["reviews"],
          summary: "Reviews dated on or after a day",
          description:
            "Supports conditional GET (RFC 9110): If-None-Match (lists, *, weak comparison) takes precedence over If-Modified-Since. The ETag changes exactly when the body would.",
          parameters: [...parametersOf(SincePathSchema, "path", output), ...conditionalHeaders],
          responses: {
            "200": { description: "Reviews since the date", headers: cacheHeaders, content: json(ref("SinceResult")) },
            "304": notModified,
            "400": badRequest,
            "429": rateLimited,
          },
        },
      },
      "/api/websub/hub": {
        post: {
          operationId: "postWebSubHub",
          tags: ["websub"],
          summary: "WebSub hub: subscribe, unsubscribe, publish",
          description:
            "W3C WebSub hub for the three topics. Subscriptions need an https callback and are verified asynchronously (GET with hub.challenge). Differs from the Recommendation in one way: a subscription is removed after 3 consecutive failed deliveries.",
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: hubSchema } } },
          responses: {
            "202": { description: "Accepted; verification (or distribution) happens asynchronously." },
            "400": {
              description: "Invalid request; the plain-text body says which field and why.",
              content: { "text/plain": { schema: { type: "string" } } },
            },
            "415": { description: "Not application/x-www-form-urlencoded." },
            "429": rateLimited,
          },
        },
      },
      "/mcp": {
        post: {
          operationId: "postMcp",
          tags: ["mcp"],
          summary: "Model Context Protocol endpoint (streamable HTTP, protocol 2025-06-18 and newer)",
          description:
            "JSON-RPC 2.0 over streamable HTTP. Send Accept: application/json, text/event-stream. `initialize` returns an Mcp-Session-Id header to send on every later request. Tools: get_business, search_reviews, get_review, get_reviews_since, get_insights.",
          requestBody: { required: true, content: json({ type: "object", description: "A JSON-RPC 2.0 message." }) },
          responses: {
            "200": { description: "JSON-RPC response (JSON or an SSE stream)." },
            "202": { description: "Notification or response accepted." },
            "400": { description: "Missing session id or malformed request." },
            "403": { description: "Host or Origin not allowed." },
            "404": { description: "Unknown or expired session; initialize again." },
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
            "200": { description: "Serving a dataset; with DATABASE_URL, the shared database answers too." },
            "414": uriTooLong,
            "503": { description: "DATABASE_URL is set and the database does not answer: reads still work." },
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
            "200": { description: "The process answers HTTP." },
            "414": uriTooLong,
          },
        },
      },
    },
    components: { schemas },
  };
}
