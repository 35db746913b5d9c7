import { defineCollection } from "astro:content";
import { BusinessFileSchema } from "./content/schema.ts";
import { InsightsContentSchema } from "./insights/content-schema.ts";
import { buildContent } from "./io/build-content.ts";

/**
 * Astro content collections backed by our own loader. The loader reads `CONTENT_DIR`, validates
 * every file with the shared zod schemas plus the cross-file rules, and fails the build with
 * `file: field: reason, got value` lines. Astro's glob loader is not used because its messages do
 * not name the field the way editors need, and it cannot check references between files.
 *
 * The reviews are checked here too (the first loader to run checks the whole folder, so a broken
 * review still stops the build before anything is bundled, with the same lines and the same
 * skipped-scaffold notices), but they are not a collection: the pages read them from
 * `buildContent()`, which keeps them once (src/io/build-content.ts). Astro's data store would hold,
 * serialise and bundle a second copy of every review.
 */

const business = defineCollection({
  loader: {
    name: "public-reviews/business",
    load: async ({ store, logger }) => {
      const { business } = (await buildContent(logger)).content;
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
      // Without the learned models, which Astro would otherwise serialise into its data store on
      // every build; the pages take them from the same load (src/site/site-data.ts).
      const { model: _, ...data } = (await buildContent(logger)).insights;
      store.clear();
      store.set({ id: "insights", data });
    },
  },
  schema: InsightsContentSchema.omit({ model: true }),
});

export const collections = { business, insights };
