import { defineCollection } from "astro:content";
import path from "node:path";
import { loadConfig } from "./config.ts";
import { BusinessFileSchema, ReviewFileSchema } from "./lib/content-schema.ts";
import { type InsightsContent, InsightsContentSchema } from "./lib/insights/content-schema.ts";
import { loadInsightsContent } from "./lib/insights-content.ts";
import { type Content, loadContent } from "./lib/load-content.ts";

/**
 * Astro content collections backed by our own loader. The loader reads `CONTENT_DIR`, validates
 * every file with the shared zod schemas plus the cross-file rules, and fails the build with
 * `file: field: reason, got value` lines. Astro's glob loader is not used because its messages do
 * not name the field the way editors need, and it cannot check references between files.
 */

let pending: Promise<Content> | undefined;
/** Both collections come from one read of the folder. */
function content(): Promise<Content> {
  pending ??= loadContent(loadConfig().CONTENT_DIR, { now: new Date() });
  return pending;
}

let pendingInsights: Promise<InsightsContent> | undefined;
/** The editorial insight files, checked against the review ids of that same single read. */
function insightsContent(): Promise<InsightsContent> {
  pendingInsights ??= content().then(({ reviews }) =>
    loadInsightsContent(
      loadConfig().CONTENT_DIR,
      reviews.map((r) => r.id),
    ),
  );
  return pendingInsights;
}

const reviews = defineCollection({
  loader: {
    name: "public-reviews/reviews",
    load: async ({ store }) => {
      const { reviews } = await content();
      store.clear();
      // Astro only accepts paths inside the project; CONTENT_DIR may be anywhere (tests, generator).
      for (const { id, file, ...data } of reviews) {
        store.set({ id, data, ...(path.isAbsolute(file) ? {} : { filePath: file }) });
      }
    },
  },
  schema: ReviewFileSchema,
});

const business = defineCollection({
  loader: {
    name: "public-reviews/business",
    load: async ({ store }) => {
      const { business } = await content();
      store.clear();
      store.set({ id: "business", data: business });
    },
  },
  schema: BusinessFileSchema,
});

const insights = defineCollection({
  loader: {
    name: "public-reviews/insights",
    load: async ({ store }) => {
      const data = await insightsContent();
      store.clear();
      store.set({ id: "insights", data });
    },
  },
  schema: InsightsContentSchema,
});

export const collections = { reviews, business, insights };
