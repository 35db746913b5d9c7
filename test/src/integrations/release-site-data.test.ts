import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../src/build/astro-build.ts";

/**
 * Astro runs a hook of its integrations one at a time, in the order astro.config.mjs lists them, so
 * where `releaseSiteData()` stands is what makes it safe (after every reader of the site data at
 * `astro:build:generated`) and useful (before the review log's files, which it makes room for).
 */
describe("releaseSiteData's place in astro.config.mjs", () => {
  const config = readFileSync(path.join(PROJECT_ROOT, "astro.config.mjs"), "utf8");
  const list = config.slice(config.indexOf("integrations: ["));
  const at = (call: string) => {
    const i = list.indexOf(`${call}(`);
    expect(i, `${call}() in astro.config.mjs's integrations`).toBeGreaterThan(0);
    return i;
  };

  it("comes after the integrations that read the site data once the pages are written", () => {
    expect(at("releaseSiteData")).toBeGreaterThan(at("reviewsJson"));
    expect(at("releaseSiteData")).toBeGreaterThan(at("sitemap"));
  });

  it("comes before the review log's files, so they reuse its memory", () => {
    expect(at("releaseSiteData")).toBeLessThan(at("reviewLogFiles"));
  });
});
