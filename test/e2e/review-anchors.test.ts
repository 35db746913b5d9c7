import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";

/**
 * A review card's heading and reply take ids made from the review's anchor. Ids are file names an
 * editor chooses (the author's name), so one review's id can be another's followed by "-title" or
 * "-reply" ("Ann", "Ann Reply" and "Ann Title" on one day); every id on a page must still be unique
 * and every card must be labelled by its own heading.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");

const review = (author: string, minute: string, reply: boolean) => `date: 2025-03-20
published_at: "2025-03-21T09:${minute}:00Z"
rating: 4
author: ${author}
title: Visit of ${author}
text: |
  Helpful and on time.
source:
  platform: google
verification:
  method: appointment_record
  verified_on: 2025-03-21
${reply ? `response:\n  date: 2025-03-22\n  text: |\n    Thank you, ${author}!\n` : ""}`;

let content: string;
let dist: string;
let pages = new Map<string, string>();

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-anchors-"));
  await cp(FIXTURE, content, { recursive: true });
  const dir = path.join(content, "reviews/2025");
  await writeFile(path.join(dir, "2025-03-20-ann.yaml"), review("Ann", "00", true));
  await writeFile(path.join(dir, "2025-03-20-ann-reply.yaml"), review("Ann Reply", "05", true));
  await writeFile(path.join(dir, "2025-03-20-ann-title.yaml"), review("Ann Title", "10", false));
  ({ distDir: dist, pages } = await builtPages(content, { BASE_URL: "http://localhost:4321" }));
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
  if (content) await rm(content, { recursive: true, force: true });
});

describe("review cards' ids", () => {
  it("are unique on every page, whatever the reviews' ids", () => {
    expect(pages.has("reviews/2025/03/index.html")).toBe(true);
    for (const [file, html] of pages) {
      const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
      const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(repeated, file).toEqual([]);
    }
  });

  it("take a review's anchor (#review-<id>) to its own card, and label the card by its own title", () => {
    for (const file of ["index.html", "reviews/2025/03/index.html"]) {
      const html = pages.get(file) ?? "";
      const cards = [...html.matchAll(/<article class="review card" id="(review-[^"]+)" aria-labelledby="([^"]+)"/g)];
      expect(cards.length, file).toBeGreaterThan(2);
      // A browser goes to, and labels by, the first element with the id.
      const first = (id: string) => new RegExp(`<([a-z0-9]+)[^>]*\\sid="${id}"[^>]*>([^<]*)<`).exec(html);
      for (const [, anchor, label] of cards) {
        expect(first(anchor as string)?.[1], `${file}: #${anchor}`).toBe("article");
        expect(first(label as string)?.[1], `${file}: ${label}`).toMatch(/^h[1-6]$/);
      }
    }
  });
});
