import { readFile } from "node:fs/promises";
import path from "node:path";
import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  INSIGHTS_SECTIONS,
  InsightsSectionSchema,
  InsightsSelectionSchema,
  selectSection,
} from "../../src/lib/insights/publish.ts";
import { type Insights, InsightsSchema } from "../../src/lib/insights/schema.ts";
import type { Snapshot, SnapshotStore } from "../snapshot.ts";
import { cachedJsonSchema } from "./cached-schema.ts";
import { errorResult, jsonResult, READ_ONLY } from "./tools.ts";

/**
 * The build-time insights (`dist/insights.json`) as the `get_insights` tool and a resource. The
 * file is read once per snapshot: a rebuild writes it before the reload swaps the snapshot in, so
 * the first read after a swap sees the same build as the reviews.
 */

export interface InsightsDeps {
  store: SnapshotStore;
  baseUrl: string;
}

interface LoadedInsights {
  insights: Insights;
  text: string;
}

const loaded = new WeakMap<Snapshot, Promise<LoadedInsights>>();

function loadInsights(store: SnapshotStore): Promise<LoadedInsights> {
  const snapshot = store.current;
  let pending = loaded.get(snapshot);
  if (!pending) {
    const file = path.join(store.distDir, "insights.json");
    pending = readFile(file, "utf8").then(
      (text) => ({ text, insights: InsightsSchema.parse(JSON.parse(text)) }),
      (err: NodeJS.ErrnoException) => {
        throw new Error(`${file} cannot be read (${err.code ?? err.message}); run npm run build`);
      },
    );
    // A failed read is retried on the next call rather than remembered.
    pending.catch(() => loaded.delete(snapshot));
    loaded.set(snapshot, pending);
  }
  return pending;
}

/** Same URI convention as the dataset: the public URL of the same document. */
export function insightsUri(baseUrl: string): string {
  return new URL(`${baseUrl}/insights.json`).href;
}

/** A partial-insights object as an output schema root (the shared schema's id would make it a `$ref`). */
export const InsightsResultSchema = cachedJsonSchema(z.object(InsightsSelectionSchema.shape));

// Checked in the handler, so a bad value is reported like a bad search parameter (with the value).
const InsightsArgsSchema = cachedJsonSchema(
  z.object({
    section: z
      .unknown()
      .optional()
      .describe(InsightsSectionSchema.description ?? "section")
      .meta({ type: "string", enum: [...INSIGHTS_SECTIONS] }),
  }),
);

export function registerInsights(server: McpServer, { store, baseUrl }: InsightsDeps): void {
  server.registerTool(
    "get_insights",
    {
      title: "Review insights",
      description:
        "What the reviews say overall, computed from every review at build time: sentiment per aspect (for " +
        "example wait times, billing, quality of care) with trends and example quotes, the most mentioned " +
        "technicians, services and areas, recurring topics, the practice's FAQ and a summary with the rating " +
        "trend. Pass `section` to get only one part; omit it for everything.",
      inputSchema: InsightsArgsSchema,
      outputSchema: InsightsResultSchema,
      annotations: READ_ONLY,
    },
    async ({ section }) => {
      const parsed = InsightsSectionSchema.optional().safeParse(section);
      if (!parsed.success) {
        const message = `${parsed.error.issues[0]?.message}, got ${JSON.stringify(section)}`;
        return errorResult({
          error: "invalid_query",
          message: `Invalid query: section: ${message}`,
          issues: [{ path: "section", value: section, message }],
        });
      }
      try {
        const { insights } = await loadInsights(store);
        return jsonResult(selectSection(insights, parsed.data));
      } catch (err) {
        return errorResult({ error: "insights_unavailable", message: (err as Error).message });
      }
    },
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
        const { text } = await loadInsights(store);
        return { contents: [{ uri: uri.href, mimeType: "application/json", text }] };
      } catch (err) {
        throw new ProtocolError(ProtocolErrorCode.InternalError, (err as Error).message);
      }
    },
  );
}
