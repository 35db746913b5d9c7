import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";

// Content-model rules of the HTML Living Standard that axe-core does not check, on every built page.
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");

let dist: string;
let pages = new Map<string, string>();

beforeAll(async () => {
  // The BASE_URL of site-html.test.ts, so the run builds this fixture once for both.
  ({ distDir: dist, pages } = await builtPages(FIXTURE, { BASE_URL: "https://reviews.example.org/willow" }));
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe("HTML content model", () => {
  it("gives a <figure> at most one <figcaption>, as its first or last child", () => {
    let figures = 0;
    for (const [file, html] of pages) {
      // The site never nests figures, so the first closing tag ends each one.
      for (const m of html.matchAll(/<figure\b[^>]*>([\s\S]*?)<\/figure>/g)) {
        figures++;
        const inner = (m[1] ?? "").trim();
        const captions = [...inner.matchAll(/<figcaption\b/g)].length;
        expect(captions, `${file}: figcaptions in one figure`).toBeLessThanOrEqual(1);
        if (captions === 1) {
          const first = inner.startsWith("<figcaption");
          const last = inner.endsWith("</figcaption>");
          expect(first || last, `${file}: figcaption neither first nor last in ${inner.slice(0, 80)}…`).toBe(true);
        }
      }
    }
    expect(figures).toBeGreaterThan(0);
  });
});
