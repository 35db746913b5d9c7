import { z } from "zod";
import { ReviewRecordSchema } from "../content/records.ts";
import { CalendarDate } from "../content/schema.ts";
import { MAX_LIMIT } from "../search/query.ts";

/**
 * Response shapes of the query endpoints, shared by the OpenAPI document and the MCP tools'
 * output schemas.
 */

export const QueryIssueSchema = z
  .object({
    path: z.string().describe("The parameter at fault."),
    value: z
      .unknown()
      .describe(
        'The value received (an array when the parameter was repeated); one of more than 200 characters as its first 200, an ellipsis and its length, e.g. "xx…x… (3000 characters)".',
      ),
    message: z.string().describe("What is wrong and what would be valid."),
  })
  .meta({ id: "QueryIssue" });

export const ApiErrorSchema = z
  .object({
    error: z.string().describe("Machine-readable code, e.g. invalid_query, not_found, rate_limited."),
    message: z.string(),
    issues: z.array(QueryIssueSchema).optional(),
  })
  .meta({ id: "Error" });

export type ApiError = z.infer<typeof ApiErrorSchema>;

/** A 412's body, from the server and in /openapi.json: it names the current ETag, to read again. */
export function preconditionFailedBody(etag: string): ApiError {
  return {
    error: "precondition_failed",
    message: `If-Match or If-Unmodified-Since does not hold: the current representation has ETag ${etag}; read it again.`,
  };
}

/** A 431's body, from the server and in /openapi.json: Node's parser refused the request line and headers. */
export function headersTooLargeBody(): ApiError {
  const message = "The request headers are too large.";
  return {
    error: "request_header_fields_too_large",
    message,
    issues: [{ path: "(request)", value: "HPE_HEADER_OVERFLOW", message }],
  };
}

/** A 400's body: always with `issues`, so a client generated from the document may rely on them. */
export const InvalidRequestSchema = ApiErrorSchema.extend({
  issues: z
    .array(QueryIssueSchema)
    .min(1)
    .describe("Every parameter (or header, or the request itself) at fault, with the value received."),
}).meta({ id: "InvalidRequest" });

export const SearchResultSchema = z
  .object({
    reviews: z.array(ReviewRecordSchema).describe("This page of matches, newest first (date desc, id asc)."),
    count: z.number().int().min(0).max(MAX_LIMIT).describe("Reviews in this page."),
    total: z.number().int().min(0).describe("Matches across all pages."),
    limit: z.number().int().min(1).max(MAX_LIMIT).describe("Page size used."),
    offset: z.number().int().min(0).describe("Matches skipped before this page."),
    next: z.string().nullable().describe("URL of the next page, or null on the last page."),
  })
  .meta({ id: "SearchResult" });

export const SinceResultSchema = z
  .object({
    since: CalendarDate,
    count: z.number().int().min(0).describe("Number of reviews returned."),
    reviews: z.array(ReviewRecordSchema).describe("Reviews dated on or after `since`, newest first."),
  })
  .meta({ id: "SinceResult" });

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SinceResult = z.infer<typeof SinceResultSchema>;

export const ReadinessSchema = z
  .object({
    status: z.enum(["ok", "degraded"]).describe("degraded: DATABASE_URL is set and the database does not answer."),
    database: z.enum(["ok", "unreachable"]).optional().describe("Present with DATABASE_URL only."),
    reviews: z.number().int().min(0).describe("Reviews in the build this instance serves."),
    version: z.string().describe("The ETag of /reviews.json in the build this instance serves."),
    build: z
      .string()
      .describe("The served build's identity (SHA-256 of its _headers.json): equal on instances serving one build."),
  })
  .meta({ id: "Readiness" });
export type Readiness = z.infer<typeof ReadinessSchema>;

export const LivenessSchema = z.object({ status: z.literal("ok") }).meta({ id: "Liveness" });
export type Liveness = z.infer<typeof LivenessSchema>;

/**
 * What every OpenAPI 3.1 document has, typed for generated clients; the full schema is the
 * official one, https://spec.openapis.org/oas/3.1/schema/2022-10-07, which the tests apply too.
 */
export const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+(-.+)?$/),
    info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
    servers: z.array(z.looseObject({ url: z.string() })).optional(),
    paths: z.record(z.string().regex(/^\//), z.record(z.string(), z.unknown())).optional(),
    components: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document: this one." });

export const JsonRpcErrorSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .meta({ id: "JsonRpcError", description: "A JSON-RPC 2.0 error response." });
