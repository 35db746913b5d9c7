import type { AstroIntegration } from "astro";
import { buildContent } from "../io/build-content.ts";

/**
 * Checks CONTENT_DIR when the build starts, before anything is bundled, so a broken review stops
 * the build with the lines `npm run check` prints (`buildContent`). `astro build` has done it
 * already by then, in its content sync (the collections' loaders, src/content.config.ts), and this
 * finds it done. npm start's build worker skips that sync (src/build/astro-worker-main.ts): nothing
 * the pages show comes from Astro's collections, and the sync's Vite server took 0.3 s of every save.
 */
export function contentFirst(): AstroIntegration {
  return {
    name: "public-reviews/content-first",
    hooks: {
      "astro:build:start": async ({ logger }) => {
        await buildContent(logger);
      },
    },
  };
}
