import { describe, expect, it } from "vitest";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { analyzerWarmUp } from "../../../src/integrations/analyzer-warm-up.ts";

const WINK = Symbol.for("public-reviews.wink");
const kept = () => (globalThis as { [WINK]?: unknown })[WINK];

describe("analyzerWarmUp", () => {
  it("reads wink's model once astro:build:start has returned, into the instances the analyser then takes", async () => {
    delete (globalThis as { [WINK]?: unknown })[WINK];
    const start = analyzerWarmUp().hooks["astro:build:start"] as () => void;
    start();
    // Not within the hook: the build goes on first.
    expect(kept()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const warmed = kept();
    expect(warmed).toBeDefined();
    expect(createAnalyzer().clauses("The adjustment helped.").length).toBeGreaterThan(0);
    expect(kept()).toBe(warmed);
  });
});
