import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import { shownValue } from "../../src/api/echoed-values.ts";
import {
  INSIGHTS_SECTIONS,
  InsightsSectionSchema,
  InsightsSelectionSchema,
  selectSection,
} from "../../src/insights/publish.ts";
import type { Insights } from "../../src/insights/schema.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type ArgumentsAsSent, advertisedInput, invalidArguments } from "./arguments-as-sent.ts";
import { cachedJsonSchema } from "./cached-schema.ts";
import { REVIEW_TEXT_NOTE } from "./instructions.ts";
import { errorResult, jsonResult, READ_ONLY } from "./tools.ts";

/**
 * The build-time insights (`/insights.json`) as the `get_insights` tool and a resource, taken from
 * the snapshot, which loads them with the reviews of the same build.
 */

export interface InsightsDeps {
  /** The request's pinned snapshot. */
  snapshot: Snapshot;
  baseUrl: string;
  /** The tool's arguments as sent (arguments-as-sent.ts). */
  asSent: ArgumentsAsSent;
}

/** The insights of a snapshot (loaded with it, so they match its reviews). */
function loadInsights(snapshot: Snapshot): { insights: Insights; text: string } {
  const loaded = snapshot.insights;
  if ("error" in loaded) throw new Error(loaded.error);
  return loaded;
}

/** Same URI convention as the dataset: the public URL of the same document. */
export function insightsUri(baseUrl: string): string {
  return new URL(`${baseUrl}/insights.json`).href;
}

/** A partial-insights object as an output schema root (the shared schema's id would make it a `$ref`). */
export const InsightsResultSchema = cachedJsonSchema(z.object(InsightsSelectionSchema.shape));

// `section` is checked in the handler, so a bad value is reported like a bad search parameter (with the value).
const InsightsArgs = z.strictObject({
  section: z
    .unknown()
    .optional()
    .describe(InsightsSectionSchema.description ?? "section")
    .meta({ type: "string", enum: [...INSIGHTS_SECTIONS] }),
});
const InsightsInput = cachedJsonSchema(advertisedInput(InsightsArgs));

export function registerInsights(server: McpServer, { snapshot, baseUrl, asSent }: InsightsDeps): void {
  server.registerTool(
    "get_insights",
    {
      title: "Review insights",
      description:
        "What the reviews say overall, computed from every review at build time: sentiment per aspect (for " +
        "example scheduling, billing, care; the ids search_reviews takes) with trends and example quotes, the most mentioned " +
        "technicians, services and areas, recurring topics, the practice's FAQ and a summary with the rating " +
        `trend. Pass \`section\` to get only one part; omit it for everything. ${REVIEW_TEXT_NOTE}`,
      inputSchema: InsightsInput,
      outputSchema: InsightsResultSchema,
      annotations: READ_ONLY,
    },
    asSent.guard(InsightsArgs, async ({ section }) => {
      // `null` is "not given", as for search parameters: what a strict-mode client sends for an optional one.
      const parsed = InsightsSectionSchema.optional().safeParse(section ?? undefined);
      if (!parsed.success) {
        const message = `${parsed.error.issues[0]?.message}, got ${shownValue(section)}`;
        return invalidArguments([{ path: "section", value: section, message }]);
      }
      try {
        const { insights } = loadInsights(snapshot);
        return jsonResult(InsightsResultSchema, selectSection(insights, parsed.data));
      } catch (err) {
        return errorResult({ error: "insights_unavailable", message: (err as Error).message });
      }
    }),
  );

  server.registerResource(
    "insights",
    insightsUri(baseUrl),
    {
      title: "Review insights",
      description: "The whole /insights.json: aspects, entities, topics, FAQ and summary.",
      mimeType: "application/json",
    },
    async (uri) => {
      try {
        const { text } = loadInsights(snapshot);
        return { contents: [{ uri: uri.href, mimeType: "application/json", text }] };
      } catch (err) {
        throw new ProtocolError(ProtocolErrorCode.InternalError, (err as Error).message);
      }
    },
  );
}
