import { defineCollection } from "astro:content";
import path from "node:path";
import { loadConfig } from "./config.ts";
import { BusinessFileSchema, ReviewFileSchema } from "./content/schema.ts";
import type { Content } from "./content/validate.ts";
import { type InsightsContent, InsightsContentSchema } from "./insights/content-schema.ts";
import { checkContentDir, formatProblems, skippedNotice } from "./io/content-check.ts";

/**
 * Astro content collections backed by our own loader. The loader reads `CONTENT_DIR`, validates
 * every file with the shared zod schemas plus the cross-file rules, and fails the build with
 * `file: field: reason, got value` lines. Astro's glob loader is not used because its messages do
 * not name the field the way editors need, and it cannot check references between files.
 */

let pending: Promise<{ content: Content; insights: InsightsContent }> | undefined;
/**
 * All three collections come from one read and one check of the folder. A problem ends the build
 * with exactly the lines `npm run check` prints: Astro's own error report would add a `Location:`
 * and a stack trace of our loader, which tell an editor nothing.
 */
function checked(logger: { warn(message: string): void }): Promise<{ content: Content; insights: InsightsContent }> {
  pending ??= (async () => {
    const config = loadConfig();
    const report = await checkContentDir(config.CONTENT_DIR, {
      now: new Date(),
      unfinished: config.UNFINISHED_REVIEWS,
    });
    for (const file of report.skipped) logger.warn(skippedNotice(file));
    if (!report.ok) {
      // Printed and exited rather than thrown: Astro would wrap a throw in a location and stack trace.
      process.stderr.write(`${formatProblems(report.problems)}\n`);
      process.exit(1);
    }
    return { content: report.content, insights: report.insights };
  })();
  return pending;
}

const reviews = defineCollection({
  loader: {
    name: "public-reviews/reviews",
    load: async ({ store, logger }) => {
      const { reviews } = (await checked(logger)).content;
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
    load: async ({ store, logger }) => {
      const { business } = (await checked(logger)).content;
      store.clear();
      store.set({ id: "business", data: business });
    },
  },
  schema: BusinessFileSchema,
});

const insights = defineCollection({
  loader: {
    name: "public-reviews/insights",
    load: async ({ store, logger }) => {
      const data = (await checked(logger)).insights;
      store.clear();
      store.set({ id: "insights", data });
    },
  },
  schema: InsightsContentSchema,
});

export const collections = { reviews, business, insights };
