import { z } from "zod";
import { headersTooLargeBody, preconditionFailedBody } from "./schemas.ts";

/**
 * Building blocks of `/openapi.json`: response headers and the responses every operation shares.
 * Each declared header is one the server really sends on that response (the contract tests check
 * it), and every caching header it sends is declared.
 */

type Obj = Record<string, unknown>;

const header = (description: string, example: string, required = true) => ({
  description,
  required,
  schema: { type: "string" },
  example,
});

/** Caching of the build's static files (src/http-headers/manifest.ts). */
export const STATIC_CACHE_CONTROL = "public, max-age=300, stale-while-revalidate=60";
/** Caching of search and since answers (sidecar/http/review-routes.ts). */
export const DYNAMIC_CACHE_CONTROL = "public, max-age=60";

const H = {
  etag: header(
    "Strong validator of the exact bytes sent; a compressed variant has its own (suffix `-br`, `-zst` or `-gz`).",
    '"n3qT7cH1m9xQ2bYkA5s0Lw"',
  ),
  vary: header("The body is compressed when Accept-Encoding allows it.", "Accept-Encoding"),
  varyFile: header(
    "The body is compressed when Accept-Encoding allows it. Sent when the file is 1 KB or more: a smaller one (a feed with no reviews yet) is sent as it is, whatever Accept-Encoding says, and does not vary.",
    "Accept-Encoding",
    false,
  ),
  lastModified: header(
    "When these bytes last changed (an HTTP date): kept while the ETag is unchanged, later with every change, never earlier.",
    "Tue, 24 Nov 2026 09:12:00 GMT",
  ),
  lastModifiedAnswer: header(
    "The later of when /reviews.json last changed and when this server process started (an HTTP date): never earlier than the body's last change, and it can move while the ETag stays (a restart, or a change to a review outside the range), so revalidate with the ETag.",
    "Tue, 24 Nov 2026 09:12:00 GMT",
  ),
  link: header(
    'WebSub discovery (RFC 8288): `<hub>; rel="hub", <topic>; rel="self"`.',
    '<https://reviews.example.org/api/websub/hub>; rel="hub", <https://reviews.example.org/feed.xml>; rel="self"',
  ),
  rateLimit: header(
    "Requests left in this client's window (IETF draft RateLimit header).",
    "limit=600, remaining=599, reset=60",
  ),
  rateLimitPolicy: header("The per-client quota: requests per window of seconds.", "600;w=60"),
};

export interface CachingOptions {
  cacheControl: string;
  lastModified: boolean;
  link: boolean;
  /**
   * A file of the build: sent without a coding (and without Vary) when under 1 KB, and dated by its
   * bytes; else an answer, which always varies and is dated by the dataset and the server's start.
   */
  file: boolean;
}

/** The validators and caching headers of a representation, sent on its 200 and its 304 alike. */
export function cachingHeaders(o: CachingOptions): Obj {
  return {
    ETag: H.etag,
    "Cache-Control": header("How long shared and private caches may reuse the answer.", o.cacheControl),
    Vary: o.file ? H.varyFile : H.vary,
    ...(o.lastModified ? { "Last-Modified": o.file ? H.lastModified : H.lastModifiedAnswer } : {}),
    ...(o.link ? { Link: H.link } : {}),
  };
}

export const rateLimitHeaders = { RateLimit: H.rateLimit, "RateLimit-Policy": H.rateLimitPolicy };

/** The headers of a 429, whatever its body. */
export const rateLimitedHeaders = {
  "Retry-After": {
    description: "Seconds until the window resets.",
    required: true,
    schema: { type: "integer" },
    example: 42,
  },
  ...rateLimitHeaders,
};

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** A media type with its schema and example. */
export const body = (schema: object, example: unknown, type = "application/json") => ({
  [type]: { schema, example },
});

export function notModified(o: CachingOptions): Obj {
  return {
    description: "Not modified: If-None-Match (or, without it, If-Modified-Since) matched. No body.",
    headers: { ...cachingHeaders(o), ...rateLimitHeaders },
  };
}

export const errorResponse = (description: string, example: object, headers?: Obj, schema = "Error"): Obj => ({
  description,
  ...(headers ? { headers } : {}),
  content: body(ref(schema), example),
});

export function sharedResponses(examples: { uriTooLong: object; rateLimited: object }): {
  uriTooLong: Obj;
  headersTooLarge: Obj;
  rateLimited: Obj;
  preconditionFailed: Obj;
} {
  return {
    preconditionFailed: errorResponse(
      "If-Match or If-Unmodified-Since did not hold (RFC 9110 §13.1.1, §13.1.4): the file changed since the client read it.",
      preconditionFailedBody('"n3qT7cH1m9xQ2bYkA5s0Lw"'),
      rateLimitHeaders,
    ),
    uriTooLong: errorResponse("The URL is longer than 4096 characters.", examples.uriTooLong),
    headersTooLarge: errorResponse(
      "The request line and headers together are over 16 KiB (a URL that long included): refused before the request is read, and the connection closed.",
      headersTooLargeBody(),
    ),
    rateLimited: errorResponse(
      "Too many requests from this client; retry after the number of seconds in Retry-After.",
      examples.rateLimited,
      rateLimitedHeaders,
    ),
  };
}

/** The conditional-GET request headers every cacheable operation honours (RFC 9110 §13.1). */
export const conditionalHeaderParameters = [
  {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "ETags from earlier answers (a list, or `*`); weak comparison. A match is 304.",
    schema: { type: "string" },
    example: '"n3qT7cH1m9xQ2bYkA5s0Lw"',
  },
  {
    name: "If-Modified-Since",
    in: "header",
    required: false,
    description:
      "An HTTP date; ignored when If-None-Match is sent, when it is not a valid date (or lies in the future), or when the answer has no Last-Modified.",
    schema: { type: "string" },
    example: "Tue, 24 Nov 2026 09:12:00 GMT",
  },
];

/** The preconditions the build's files honour on GET and HEAD (RFC 9110 §13.1.1, §13.1.4): 412 when they fail. */
export const preconditionHeaderParameters = [
  {
    name: "If-Match",
    in: "header",
    required: false,
    description: "ETags (a list, or `*`); strong comparison. No match is 412; evaluated before every other condition.",
    schema: { type: "string" },
    example: '"n3qT7cH1m9xQ2bYkA5s0Lw"',
  },
  {
    name: "If-Unmodified-Since",
    in: "header",
    required: false,
    description:
      "An HTTP date; 412 when the file changed after it. Ignored when If-Match is sent or the date is not valid.",
    schema: { type: "string" },
    example: "Tue, 24 Nov 2026 09:12:00 GMT",
  },
];

/**
 * `z.number().int()` says "safe integer" as ±2^53-1 bounds, which linters and generators take
 * for real limits; the schemas state the bounds that matter (counts ≥ 0, limit ≤ 100) themselves.
 */
export const dropSafeIntegerBounds = ({ jsonSchema: s }: { jsonSchema: Record<string, unknown> }) => {
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
};
export const toJsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    override: dropSafeIntegerBounds,
  }) as Record<string, unknown>;

export const output = (schema: z.ZodType) => toJsonSchema(schema, "output");
/** Request parameters keep the safe-integer bound: the server refuses an `offset` above it. */
export const parameterSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "output", target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;
