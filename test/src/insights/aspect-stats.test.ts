import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildDataset } from "../../../src/content/dataset.ts";
import type { ReviewRecord } from "../../../src/content/records.ts";
import { analyzeReviews, type InsightsInput } from "../../../src/insights/build.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { loadInsightsContent } from "../../../src/io/insights-dir.ts";

/**
 * "In their words": a sentence is quoted for an aspect only when it is explicit evidence for the
 * review's polarity, never a contrast read into a clause with no opinion word, nor a tie the rating
 * broke. Reviews written for this test, analysed with the sample content's vocabulary.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
let input: InsightsInput;

beforeAll(async () => {
  const dir = path.join(ROOT, "content");
  const content = await loadContent(dir, { now: new Date("2100-01-01T00:00:00Z") });
  const dataset = buildDataset(content, "https://reviews.example");
  input = {
    reviews: [],
    business: dataset.business,
    // The FAQ names sample reviews that these tests do not have.
    content: {
      ...(await loadInsightsContent(
        dir,
        dataset.reviews.map((r) => r.id),
      )),
      faq: [],
    },
    analyzer: createAnalyzer(),
  };
});

const review = (id: string, rating: number, text: string): ReviewRecord => ({
  id,
  url: `https://reviews.example/#${id}`,
  date: "2025-01-01",
  published_at: "2025-01-01T00:00:00Z",
  rating,
  author: "A. B.",
  title: null,
  text,
  source: { platform: "direct", url: null },
  verification: { method: "invoice", verified_on: "2025-01-01" },
  technicians: [],
  services: [],
  service_areas: [],
  response: null,
  log_index: 0,
  log_nonce: Buffer.alloc(32).toString("base64"),
  aspects: [],
});

const quotes = (reviews: ReviewRecord[], id: string) => {
  const a = analyzeReviews({ ...input, reviews }).insights.aspects.find((x) => x.id === id);
  return {
    counts: [a?.positive, a?.negative],
    quoted: [...(a?.examples.positive ?? []), ...(a?.examples.negative ?? [])].map((q) => q.sentence),
  };
};

describe("quotes a visitor can trust", () => {
  it("counts a contrast read into a clause without an opinion word, but does not quote it", () => {
    expect(quotes([review("contrast", 4, "The building is old, but the doctor is excellent.")], "facility")).toEqual({
      counts: [0, 1],
      quoted: [],
    });
  });

  it("counts a tie the rating broke, but does not quote either side of it", () => {
    const tie = review("tie", 5, "The booking was seamless. The booking was a hassle.");
    expect(quotes([tie], "scheduling")).toEqual({ counts: [1, 0], quoted: [] });
  });

  it("quotes a sentence whose own words say it", () => {
    expect(quotes([review("plain", 3, "Finding a parking spot was a nightmare.")], "location")).toEqual({
      counts: [0, 1],
      quoted: ["Finding a parking spot was a nightmare."],
    });
  });
});
