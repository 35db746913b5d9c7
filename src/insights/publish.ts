import { z } from "zod";
import { type Insights, InsightsSchema } from "./schema.ts";

/**
 * How the insights leave the build: the bytes of `/insights.json`, and section selection for the
 * `get_insights` MCP tool. Kept pure so the endpoint and the tool handler are one-liners.
 */

export const INSIGHTS_SECTIONS = ["aspects", "entities", "topics", "faq", "summary"] as const;
export type InsightsSection = (typeof INSIGHTS_SECTIONS)[number];

export const InsightsSectionSchema = z
  .enum(INSIGHTS_SECTIONS, { error: `expected one of ${INSIGHTS_SECTIONS.join(", ")}` })
  .describe("Which part of the insights to return; omit for all of them.");

/**
 * What `selectSection` returns: the full insights object, or one with only the requested key.
 * Use as the MCP tool's `outputSchema`.
 */
// No id: a root with an id becomes a bare `$ref` in JSON Schema, and MCP wants `type: "object"` there.
export const InsightsSelectionSchema = InsightsSchema.partial().meta({
  description: "The insights, or only the requested section (one key of Insights).",
});
export type InsightsSelection = z.infer<typeof InsightsSelectionSchema>;

/** The whole insights when `section` is undefined, else an object holding only that section. */
export function selectSection(insights: Insights, section?: InsightsSection): InsightsSelection {
  if (section === undefined) return insights;
  return { [section]: insights[section] };
}

/**
 * The bytes of `/insights.json`. Validated against the published schema first, so a computation bug
 * fails the build instead of shipping a document that contradicts `/openapi.json`.
 */
export function renderInsightsJson(insights: Insights): string {
  return `${JSON.stringify(InsightsSchema.parse(insights), null, 2)}\n`;
}
