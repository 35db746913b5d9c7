import type { Sentiment } from "../content/records.ts";
import { type ListPart, listParts, PART_SEGMENT } from "./list-parts.ts";

/**
 * Addresses of the evidence pages: the static list of reviews behind each figure of the home page
 * (src/site/evidence.ts). The home page and the pages themselves take their paths from here, so a
 * figure's link and the page it opens cannot disagree.
 */

/** The entity kinds of the records, and the word each one's pages live under. */
export const ENTITY_SEGMENTS = {
  technicians: "practitioners",
  services: "services",
  service_areas: "service-areas",
} as const;
export type EntityKind = keyof typeof ENTITY_SEGMENTS;

/** Segments that name entity, topic, rating and part pages, so no aspect id may take them. */
export const RESERVED_SEGMENTS: readonly string[] = [
  ...Object.values(ENTITY_SEGMENTS),
  "topics",
  "ratings",
  PART_SEGMENT,
];

/** Where the trend column's reviews (an aspect's reviews in the last 12 months) are listed. */
export const RECENT_SEGMENT = "last-12-months";

/** `/insights/billing/`, or `/insights/billing/negative/` for one polarity. */
export function aspectPath(aspect: string, sentiment?: Sentiment): string {
  return sentiment ? `/insights/${aspect}/${sentiment}/` : `/insights/${aspect}/`;
}

/** The reviews of an aspect in the last 12 months of the trend. */
export function recentAspectPath(aspect: string): string {
  return `/insights/${aspect}/${RECENT_SEGMENT}/`;
}

/** `/insights/practitioners/dr-patel/`, or `/insights/practitioners/dr-patel/billing/` with an aspect. */
export function entityPath(kind: EntityKind, id: string, aspect?: string): string {
  const base = `/insights/${ENTITY_SEGMENTS[kind]}/${id}/`;
  return aspect ? `${base}${aspect}/` : base;
}

/**
 * One kebab-case slug per topic phrase, in the order given: "front desk" -> `front-desk`. Phrases
 * that fold to the same slug (punctuation, case) get `-2`, `-3`… in order, so every topic has a
 * page of its own and the same topics always get the same paths.
 */
export function topicSlugs(phrases: readonly string[]): string[] {
  const seen = new Set<string>();
  return phrases.map((phrase) => {
    const base =
      phrase
        .toLowerCase()
        .normalize("NFKD")
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "") || "topic";
    let slug = base;
    for (let n = 2; seen.has(slug); n++) slug = `${base}-${n}`;
    seen.add(slug);
    return slug;
  });
}

export function topicPath(slug: string): string {
  return `/insights/topics/${slug}/`;
}

/** The reviews of one star rating (a histogram bar), or of the rating trend's last 12 months. */
export function ratingPath(stars: number | typeof RECENT_SEGMENT): string {
  return `/insights/ratings/${stars}/`;
}

/** Reviews one evidence page lists at most (src/site/list-parts.ts). */
export const EVIDENCE_PART_SIZE = 200;

/** The pages of the evidence list at `path` of `count` reviews. */
export function evidenceParts(path: string, count: number): ListPart[] {
  return listParts(path, count, EVIDENCE_PART_SIZE);
}
