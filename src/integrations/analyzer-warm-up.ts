import type { AstroIntegration } from "astro";
import { warmAnalyzer } from "../insights/nlp.ts";

/**
 * Reads wink's model while Vite bundles the site. A build analyses at least the reviews it has not
 * seen before, and reading the model was 0.15–0.2 s of a rebuild's critical path, between the
 * review log and the analysis; while Rolldown bundles, the build's main thread is idle half the
 * time. The instances are kept on `globalThis` (src/insights/nlp.ts), where the bundled copy of
 * the analyser finds them: the model module is external to the bundle, so both copies see the
 * same one. npm start's build worker keeps them between builds, so there this finds them read.
 */
export function analyzerWarmUp(): AstroIntegration {
  return {
    name: "public-reviews/analyzer-warm-up",
    hooks: {
      "astro:build:start": () => {
        // After the hook returns, so the build goes on to bundling first.
        setTimeout(warmAnalyzer, 0).unref();
      },
    },
  };
}
