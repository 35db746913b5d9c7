import type { ReviewRecord } from "../../src/content/records.ts";

/**
 * A published review record as /reviews.json has it, for tests that feed records to the insights
 * or the site: every field filled with a plain value, the text and rating as given.
 */
export function reviewRecord(id: string, rating: number, text: string, more: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
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
    ...more,
  };
}
