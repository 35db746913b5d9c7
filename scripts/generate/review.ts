import type { BusinessFile, CatalogueItem, SOURCE_PLATFORMS } from "../../src/content/schema.ts";
import { slugOf } from "../../src/content/slug.ts";
import { type ComposedReview, composeReview, type ReviewPlan } from "./compose.ts";
import type { Rng } from "./prng.ts";
import { composeReply } from "./reply.ts";
import type { ReviewFileInput } from "./review-yaml.ts";

const DAY_MS = 86_400_000;

/** Anything left unset is drawn at random; the generator sets these to guarantee coverage. */
export interface Forced {
  rating?: number;
  technician?: CatalogueItem;
  service?: CatalogueItem;
  area?: CatalogueItem;
}

export interface DrawnReview {
  /** Slug of the author, the second half of the id. */
  authorSlug: string;
  file: ReviewFileInput;
  composed: ComposedReview;
}

type Platform = (typeof SOURCE_PLATFORMS)[number];

const PLATFORMS = [
  ["google", 45],
  ["yelp", 18],
  ["facebook", 12],
  ["healthgrades", 10],
  ["direct", 15],
] as const;

export type DrawReview = (rng: Rng, dayMs: number, untilMs: number, forced?: Forced) => DrawnReview;

/**
 * Returns a function that draws one review for a given day. `dayMs` is the review date at 00:00
 * UTC and `untilMs` the anchor: nothing (publication, verification, reply) may fall after it.
 * Whatever depends only on the business is worked out once here, not per review.
 */
export function createDrawer(business: BusinessFile, names: readonly string[]): DrawReview {
  const street = streetName(business.address.street_address);
  const director = business.technicians[0]?.name ?? business.name;
  const urls = sourceUrls(business);
  return (rng, dayMs, untilMs, forced = {}) => {
    const rating = forced.rating ?? rng.weighted(RATINGS);
    const plan: ReviewPlan = {
      rating,
      length: rng.weighted([
        ["short", forced.technician || forced.service || forced.area ? 0 : 25],
        ["medium", 45],
        ["long", 30],
      ]),
      technicians: withForced(rng.sample(business.technicians, rng.weighted(MENTION_COUNTS)), forced.technician),
      services: withForced(rng.sample(business.services, rng.weighted(MENTION_COUNTS)), forced.service),
      area: forced.area ?? (rng.chance(0.35) ? rng.pick(business.service_areas) : undefined),
      street,
    };
    const composed = composeReview(rng, plan);
    if (composed.text === "") throw new Error(`composed an empty review text for plan ${JSON.stringify(plan)}`);

    const { author, firstName } = drawAuthor(rng, names);
    const lastDay = Math.round((untilMs - dayMs) / DAY_MS);
    const publishDays = Math.min(lastDay, rng.weighted(PUBLISH_DELAYS));
    const minute = rng.int(7 * 60, 22 * 60 + 59);
    const platform = rng.weighted(PLATFORMS);
    const file: ReviewFileInput = {
      date: isoDate(dayMs),
      published_at: `${isoDate(dayMs + publishDays * DAY_MS)}T${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:00Z`,
      rating,
      author,
      title: composed.title,
      text: composed.text,
      source: { platform, url: platform === "direct" || rng.chance(0.15) ? undefined : urls[platform](rng) },
      verification: {
        method: platform === "direct" ? rng.pick(DIRECT_METHODS) : rng.weighted(PLATFORM_METHODS),
        // Verified before it was published, never before the visit.
        verified_on: isoDate(dayMs + rng.int(0, publishDays) * DAY_MS),
      },
      technicians: rng.chance(0.12) ? composed.mentioned.technicians : undefined,
      services: rng.chance(0.08) ? composed.mentioned.services : undefined,
      service_areas: rng.chance(0.06) ? composed.mentioned.areas : undefined,
    };
    // About a quarter of reviews get a reply, most of the critical ones.
    if (rng.chance(REPLY_CHANCE[rating] ?? 0)) {
      file.response = {
        date: isoDate(dayMs + Math.min(lastDay, publishDays + rng.int(0, 7)) * DAY_MS),
        text: composeReply(rng, { rating, firstName, topics: composed.topics, director, businessName: business.name }),
      };
    }
    return { authorSlug: slugOf(author), file, composed };
  };
}

const RATINGS = [
  [5, 60],
  [4, 20],
  [3, 7],
  [2, 6],
  [1, 7],
] as const;
const REPLY_CHANCE = [0, 0.8, 0.7, 0.5, 0.2, 0.12];

const MENTION_COUNTS = [
  [0, 30],
  [1, 55],
  [2, 15],
] as const;

const PUBLISH_DELAYS = [
  [0, 30],
  [1, 25],
  [2, 15],
  [3, 10],
  [4, 8],
  [5, 7],
  [6, 5],
] as const;

const DIRECT_METHODS = ["appointment_record", "email_confirmation", "invoice"] as const;
const PLATFORM_METHODS = [
  ["platform_verified", 55],
  ["appointment_record", 25],
  ["invoice", 10],
  ["email_confirmation", 10],
] as const;

function withForced(items: CatalogueItem[], item: CatalogueItem | undefined): CatalogueItem[] {
  return item ? [item, ...items.filter((i) => i.id !== item.id)].slice(0, Math.max(1, items.length)) : items;
}

function drawAuthor(rng: Rng, names: readonly string[]): { author: string; firstName: string | undefined } {
  const first = rng.pick(names);
  const initial = String.fromCharCode(65 + rng.int(0, 25));
  const style = rng.weighted([
    ["first-initial", 65],
    ["first", 20],
    ["initials", 15],
  ]);
  if (style === "first-initial") return { author: `${first} ${initial}.`, firstName: first };
  if (style === "first") return { author: first, firstName: first };
  return { author: `${first.charAt(0)}.${initial}.`, firstName: undefined };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS = "0123456789";
function token(rng: Rng, length: number, alphabet = ALNUM): string {
  let s = "";
  for (let i = 0; i < length; i++) s += alphabet.charAt(rng.int(0, alphabet.length - 1));
  return s;
}

/** Review links in each platform's shape, on `.example` hosts so none can resolve. */
function sourceUrls(business: BusinessFile): Record<Exclude<Platform, "direct">, (rng: Rng) => string> {
  const biz = slugOf(business.name);
  const town = slugOf(business.address.locality);
  const region = slugOf(business.address.region);
  const handle = new URL(business.url).hostname.split(".")[0] ?? biz;
  return {
    google: (rng) => `https://www.google.example/maps/reviews/${token(rng, 12)}`,
    yelp: (rng) => `https://www.yelp.example/biz/${biz}-${town}?hrid=${token(rng, 16)}`,
    facebook: (rng) => `https://www.facebook.example/${handle}/reviews/${token(rng, 15, DIGITS)}`,
    healthgrades: (rng) =>
      `https://www.healthgrades.example/group-directory/${region}/${town}/${biz}#review-${token(rng, 6, DIGITS)}`,
  };
}

/** "4820 SW Hall Blvd, Suite 210" -> "Hall Blvd": the way patients name the street. */
export function streetName(streetAddress: string): string {
  const street = (streetAddress.split(",")[0] ?? streetAddress)
    .replace(/^\d+[a-z]?\s+/i, "")
    .replace(/^(?:N|S|E|W|NE|NW|SE|SW)\s+/, "");
  return street === "" ? streetAddress : street;
}

const isoDates = new Map<number, string>();
/** `YYYY-MM-DD` of a UTC midnight; memoised, as a few thousand days cover 100,000 reviews. */
export function isoDate(ms: number): string {
  let s = isoDates.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString().slice(0, 10);
    isoDates.set(ms, s);
  }
  return s;
}

const pad = (n: number) => String(n).padStart(2, "0");
