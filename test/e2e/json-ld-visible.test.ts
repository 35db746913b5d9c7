import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/**
 * Structured data describes what its page shows (docs/site.md: "the same reviews, ratings and
 * aggregate"): a consumer of the markup, a search engine first, takes a rating that no reader of
 * the page can see for markup of hidden content. Every page whose JSON-LD states the practice's
 * aggregate rating must show it, average and count, in its text.
 */

let dist: string;
let pages: Map<string, string>;

beforeAll(async () => {
  ({ distDir: dist, pages } = await builtPages(PROJECT_CONTENT, { BASE_URL: "https://reviews.example" }));
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
});

/** What a reader sees: the page without its scripts and tags, whitespace collapsed. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("the aggregate rating in the JSON-LD", () => {
  it("is shown on every page that marks it up, month archives included", () => {
    let checked = 0;
    for (const [file, html] of pages) {
      for (const m of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)) {
        const ld = JSON.parse(m[1] as string) as { aggregateRating?: { ratingValue: number; reviewCount: number } };
        if (!ld.aggregateRating) continue;
        const { ratingValue, reviewCount } = ld.aggregateRating;
        const text = visibleText(html);
        expect(text, file).toContain(`${ratingValue.toFixed(2)} out of 5`);
        expect(text, file).toMatch(new RegExp(`\\b${reviewCount} verified reviews\\b`));
        checked++;
      }
    }
    expect(pages.has("reviews/2026/11/index.html")).toBe(true);
    expect(checked).toBeGreaterThan(1);
  });
});
