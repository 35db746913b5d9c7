import { defineCollection } from "astro:content";
import { createRequire } from "node:module";

/**
 * The content check and the schemas are loaded by Node, not through Vite. Astro reads this file
 * with Vite's module runner on every build, which transformed all 43 modules of the content check
 * each time; Node loads them once per process, where npm start's build worker keeps them between
 * builds, and where the integrations and the worker already share them.
 */
const load = createRequire(import.meta.url);
const { BusinessFileSchema } = load("./content/schema.ts") as typeof import("./content/schema.ts");
const { InsightsContentSchema } = load("./insights/content-schema.ts") as typeof import("./insights/content-schema.ts");
const { buildContent } = load("./io/build-content.ts") as typeof import("./io/build-content.ts");

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
 * serialise and bundle a second copy of every review. The pages read the business and the insights
 * content from `buildContent()` too (src/site/site-data.ts): npm start's build worker skips Astro's
 * content sync, which fills these collections (src/build/astro-worker-main.ts).
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
