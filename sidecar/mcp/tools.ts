import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { echoedValue, shownValue } from "../../src/api/echoed-values.ts";
import {
  SearchResultSchema as HttpSearchResultSchema,
  SinceResultSchema as HttpSinceResultSchema,
} from "../../src/api/schemas.ts";
import { AggregateRatingSchema, BusinessSchema, ReviewRecordSchema } from "../../src/content/records.ts";
import { SearchParamsSchema } from "../../src/search/query.ts";
import { invalidQueryBody, type Outcome, sinceIssues } from "../../src/search/query-service.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type ArgumentsAsSent, advertisedInput } from "./arguments-as-sent.ts";
import { cachedSearch, cachedSince, type JsonValue } from "./cached-results.ts";
import { cachedJsonSchema } from "./cached-schema.ts";
import { REVIEW_TEXT_NOTE } from "./instructions.ts";

/**
 * The read-only review tools. Each is a second front door to the query service behind the HTTP
 * routes (src/search/query-service.ts), so a tool returns exactly the JSON of the matching request, and a
 * bad argument gets exactly the HTTP 400 body as an `isError` result.
 */

export interface ToolDeps {
  /** The request's pinned snapshot. */
  snapshot: Snapshot;
  /** Public base URL: `next` links and permalinks point there. */
  baseUrl: string;
  /**
   * The `arguments` of the `tools/call` this server was built for, as parsed from the request
   * body (arguments-as-sent.ts): every tool is guarded with them, and `search_reviews` reads them,
   * so a `__proto__` key reaches `parseSearchParams` (which keeps it as data) and is reported as
   * unknown with the HTTP wording, as `?__proto__=1` is.
   */
  asSent: ArgumentsAsSent;
}

export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * A result with `structuredContent` and the same JSON as text, for clients that read only text.
 * The tool's output schema is passed so the compiler holds every result to what the tool advertises.
 */
export function jsonResult<S extends z.ZodType<object>>(_schema: S, value: z.output<S>): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * An `isError` result whose text is the JSON body the HTTP API sends with its 4xx. There is no
 * `structuredContent`: SDK clients validate it against the tool's output schema even on errors.
 */
export function errorResult(body: { error: string; message: string } & Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true };
}

/**
 * A query-service outcome as a tool result, its JSON text made (and cached) with the value, so
 * nothing is serialised here; issues become the body of the HTTP 400. The output schema is passed,
 * as to `jsonResult`, so the compiler holds the value to what the tool advertises.
 */
function asTool<S extends z.ZodType<object>>(_schema: S, outcome: Outcome<JsonValue<z.output<S>>>): CallToolResult {
  if (!outcome.ok) return errorResult(invalidQueryBody(outcome.issues));
  const { text, value } = outcome.value;
  return { content: [{ type: "text", text }], structuredContent: value as Record<string, unknown> };
}

/**
 * The advertised arguments are the search parameters' own JSON Schema (one JSON type each: the
 * numbers as numbers; numeric strings are still taken, since the tool parses every value with
 * `parseSearchParams`, which reads numbers from strings as the HTTP route does) and no others.
 * Validation is deliberately not done by the SDK: zod parses with an empty loose shape, so every
 * value reaches `parseSearchParams` and a wrong or unknown one is reported with the HTTP wording
 * and in the caller's order (a declared shape would reorder keys), not zod's.
 */
const { properties: searchProperties } = z.toJSONSchema(SearchParamsSchema, {
  io: "output",
  target: "draft-2020-12",
  unrepresentable: "any",
});
export const SearchArgsSchema = cachedJsonSchema(
  z.looseObject({}).meta({ properties: searchProperties, additionalProperties: false }),
);

/**
 * The HTTP response shapes, re-rooted: a schema carrying an OpenAPI id serialises to a bare `$ref`,
 * which MCP clients reject as an output schema.
 */
export const SearchResultSchema = cachedJsonSchema(z.object(HttpSearchResultSchema.shape));
export const SinceResultSchema = cachedJsonSchema(z.object(HttpSinceResultSchema.shape));
export const ReviewResultSchema = cachedJsonSchema(z.object(ReviewRecordSchema.shape));

// Module-level, like every schema here: a server is built per request, so nothing is rebuilt per call.
// Each tool's strict arguments (checked by `asSent.guard`) and what the SDK is given (`advertisedInput`).
const ReviewArgs = z.strictObject({ id: z.string().describe('a review id (a string), e.g. "2024-03-14-maria-g"') });
const ReviewInput = cachedJsonSchema(advertisedInput(ReviewArgs));
const SinceArgs = z.strictObject({
  date: z.string().describe("the first day to include, YYYY-MM-DD (a real calendar date), e.g. 2025-01-01"),
});
const SinceInput = cachedJsonSchema(advertisedInput(SinceArgs));

/** No arguments, and an unknown one is refused, as by every tool. */
export const NoArgs = z.strictObject({});
export const NoArgsInput = cachedJsonSchema(advertisedInput(NoArgs));

export const BusinessResultSchema = cachedJsonSchema(
  z.object({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
  }),
);

export function registerReviewTools(server: McpServer, { snapshot, baseUrl, asSent }: ToolDeps): void {
  server.registerTool(
    "get_business",
    {
      title: "Business profile",
      description:
        "The practice's profile: name, contact details, address, opening hours, the catalogues of technicians " +
        "(ids, names, aliases), services and service areas, and the aggregate star rating with its distribution. " +
        "Call it first to learn the technician names and service ids that search_reviews accepts.",
      inputSchema: NoArgsInput,
      outputSchema: BusinessResultSchema,
      annotations: READ_ONLY,
    },
    asSent.guard(NoArgs, () => {
      const { business, aggregate_rating } = snapshot.index.dataset;
      return jsonResult(BusinessResultSchema, { business, aggregate_rating });
    }),
  );

  server.registerTool(
    "search_reviews",
    {
      title: "Search reviews",
      description:
        "Finds reviews by star rating, date range, text, the technician or service they mention, and the aspect " +
        "they discuss with its sentiment (aspect=billing&sentiment=negative). All filters " +
        "combine with AND; results are newest first and paged with limit/offset. Takes exactly the parameters of " +
        "GET /api/reviews/search and returns the same JSON. An invalid value gives an error listing each bad " +
        `parameter, the value received and what is valid. ${REVIEW_TEXT_NOTE}`,
      inputSchema: SearchArgsSchema,
      outputSchema: SearchResultSchema,
      annotations: READ_ONLY,
    },
    // Its arguments are checked by the search parser itself, with the HTTP wording and in the caller's order.
    (args) => asTool(SearchResultSchema, cachedSearch(snapshot, baseUrl, asSent.value ?? args)),
  );

  server.registerTool(
    "get_review",
    {
      title: "One review",
      description: `One review by its id (as found in search results), with its text, rating, mentions and reply. ${REVIEW_TEXT_NOTE}`,
      inputSchema: ReviewInput,
      outputSchema: ReviewResultSchema,
      annotations: READ_ONLY,
    },
    asSent.guard(ReviewArgs, ({ id }) => {
      const review = snapshot.index.byId(id);
      if (review) return jsonResult(ReviewResultSchema, review);
      return errorResult({
        error: "not_found",
        message: `No review has the id ${shownValue(id)}. Use search_reviews to find review ids.`,
        id: echoedValue(id),
      });
    }),
  );

  server.registerTool(
    "get_reviews_since",
    {
      title: "Reviews since a date",
      description:
        "Every review dated on or after a day, newest first: use it to catch up on what is new since a " +
        `previous visit. Same result as GET /api/reviews/since/{date}. ${REVIEW_TEXT_NOTE}`,
      inputSchema: SinceInput,
      outputSchema: SinceResultSchema,
      annotations: READ_ONLY,
    },
    asSent.guard(
      SinceArgs,
      ({ date }) => asTool(SinceResultSchema, cachedSince(snapshot, date)),
      // A date of the right type that since refuses: zod takes it, so only since can name it.
      ({ date }) => (typeof date === "string" ? sinceIssues(date) : []),
    ),
  );
}
