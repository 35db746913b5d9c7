import type { BusinessFile, CatalogueItem } from "../../src/content/schema.ts";
import type { TopicHit } from "./compose.ts";
import { createRng } from "./prng.ts";
import { createDrawer, type Forced, isoDate } from "./review.ts";
import { reviewYaml } from "./review-yaml.ts";
import { FIRST_NAMES } from "./vocabulary.ts";

/** Reviews span this many years, ending at `until`. */
export const SPAN_YEARS = 4;
const DAY_MS = 86_400_000;

export interface GenerateOptions {
  /** How many reviews, at least 1. */
  reviews: number;
  seed: string;
  /** The last day anything may be dated, `YYYY-MM-DD`; the output never depends on the clock. */
  until: string;
}

export interface GeneratedReview {
  id: string;
  date: string;
  rating: number;
  /** Path under the content folder: `reviews/<year>/<id>.yaml`. */
  path: string;
  yaml: string;
  topics: readonly TopicHit[];
}

/** The first day reviews may fall on: `SPAN_YEARS` years before `until`, plus one day. */
export function firstDay(until: string): string {
  const [y, m, d] = until.split("-").map(Number) as [number, number, number];
  return isoDate(Date.UTC(y - SPAN_YEARS, m - 1, d) + DAY_MS);
}

/**
 * Yields `options.reviews` reviews, lazily so 100,000 of them never sit in memory at once.
 * Deterministic: the same business and options give the same reviews in the same order. The
 * first few reviews each force one catalogue entry and one rating, so every technician, service,
 * area and star rating appears as soon as there are enough reviews to hold them.
 */
export function* generateReviews(business: BusinessFile, options: GenerateOptions): Generator<GeneratedReview> {
  const rng = createRng(options.seed);
  const startMs = Date.parse(`${firstDay(options.until)}T00:00:00Z`);
  const untilMs = Date.parse(`${options.until}T00:00:00Z`);
  const days = Math.round((untilMs - startMs) / DAY_MS) + 1;
  const draw = createDrawer(business, authorNames(business));
  const quota = coverageQuota(business);
  const ids = new Set<string>();

  for (let i = 0; i < options.reviews; i++) {
    // Density rises linearly to three times its starting value: a practice that grows.
    const x = (Math.sqrt(1 + 8 * rng.next()) - 1) / 2;
    const dayMs = startMs + Math.min(days - 1, Math.floor(x * days)) * DAY_MS;
    const drawn = draw(rng, dayMs, untilMs, quota[i]);
    const base = `${drawn.file.date}-${drawn.authorSlug}`;
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    yield {
      id,
      date: drawn.file.date,
      rating: drawn.file.rating,
      path: `reviews/${drawn.file.date.slice(0, 4)}/${id}.yaml`,
      yaml: reviewYaml(drawn.file),
      topics: drawn.composed.topics,
    };
  }
}

function coverageQuota(business: BusinessFile): Forced[] {
  const entries: Forced[] = [
    ...business.technicians.map((technician) => ({ technician })),
    ...business.services.map((service) => ({ service })),
    ...business.service_areas.map((area) => ({ area })),
  ];
  const quota = entries.length >= 5 ? entries : [...entries, ...Array.from({ length: 5 - entries.length }, () => ({}))];
  return quota.map((f, i) => (i < 5 ? { ...f, rating: i + 1 } : f));
}

/** Reviewer names that cannot be mistaken for a catalogue entry ("Tom" is a technician here). */
function authorNames(business: BusinessFile): string[] {
  const taken = new Set<string>();
  const add = (item: CatalogueItem) => {
    for (const form of [item.name, ...item.aliases])
      for (const word of form.split(/\s+/)) taken.add(word.toLowerCase());
  };
  [...business.technicians, ...business.services, ...business.service_areas].forEach(add);
  return FIRST_NAMES.filter((n) => !taken.has(n.toLowerCase()));
}
