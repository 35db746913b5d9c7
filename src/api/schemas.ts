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
    value: z.unknown().describe("The value received (an array when the parameter was repeated)."),
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
