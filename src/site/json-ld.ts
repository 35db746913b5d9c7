import type { MedicalClinic, WithContext } from "schema-dts";
import type { AggregateRating, Business, ReviewRecord } from "../content/records.ts";
import { uriOf } from "../urls.ts";
import { dayName } from "./html-view.ts";

/**
 * schema.org JSON-LD for the HTML pages: the practice as a `MedicalClinic` (a `MedicalBusiness`,
 * hence a `LocalBusiness`, and a `MedicalOrganization`) with its aggregate rating and the reviews
 * visible on that page (marked-up reviews must be on the page). schema.org has no chiropractor
 * type: chiropractic is a `MedicineSystem` value, which belongs on a `MedicalEntity`, so it is said
 * on each service (a `MedicalTherapy` in `availableService`), and the clinic's `medicalSpecialty`
 * is `Musculoskeletal`. The business node is typed by schema-dts, so `tsc` rejects a type or
 * property schema.org does not have.
 */

type JsonLd = Record<string, unknown>;

/** The schema.org type of the practice; review pages name it in `itemReviewed`. */
export const BUSINESS_TYPE = "MedicalClinic";

export interface JsonLdInput {
  business: Business;
  aggregate: AggregateRating;
  /** Only the reviews shown on the page. */
  reviews: readonly ReviewRecord[];
  /** Canonical URL of the home page; the business node's `@id` hangs off it. */
  homeUrl: string;
}

export function localBusinessJsonLd({ business, aggregate, reviews, homeUrl }: JsonLdInput): JsonLd {
  const node = {
    "@context": "https://schema.org",
    "@type": BUSINESS_TYPE,
    "@id": `${homeUrl}#business`,
    name: business.name,
    description: business.description,
    url: uriOf(business.url),
    telephone: business.telephone,
    ...(business.email ? { email: business.email } : {}),
    address: {
      "@type": "PostalAddress",
      streetAddress: business.address.street_address,
      addressLocality: business.address.locality,
      addressRegion: business.address.region,
      postalCode: business.address.postal_code,
      addressCountry: business.address.country,
    },
    geo: { "@type": "GeoCoordinates", latitude: business.geo.latitude, longitude: business.geo.longitude },
    openingHoursSpecification: business.opening_hours.map((h) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: h.days.map(dayName),
      opens: h.opens,
      closes: h.closes,
    })),
    areaServed: business.service_areas.map((a) => ({ "@type": "City", name: a.name })),
    medicalSpecialty: "https://schema.org/Musculoskeletal",
    availableService: business.services.map((s) => ({
      "@type": "MedicalTherapy",
      name: s.name,
      medicineSystem: "https://schema.org/Chiropractic",
    })),
  } satisfies WithContext<MedicalClinic> as JsonLd;
  // An AggregateRating with reviewCount 0 is invalid for consumers, so a practice without reviews has none.
  if (aggregate.review_count > 0) {
    node.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: aggregate.rating_value,
      reviewCount: aggregate.review_count,
      bestRating: aggregate.best_rating,
      worstRating: aggregate.worst_rating,
    };
  }
  if (reviews.length > 0) node.review = reviews.map(reviewJsonLd);
  return node;
}

function reviewJsonLd(r: ReviewRecord): JsonLd {
  return {
    "@type": "Review",
    "@id": r.url,
    url: r.url,
    ...(r.title ? { name: r.title } : {}),
    author: { "@type": "Person", name: r.author },
    datePublished: r.date,
    reviewBody: r.text.trim(),
    reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
  };
}

/**
 * JSON for inside `<script type="application/ld+json">`. HTML ends a script at the first `</script`
 * whatever the JSON says, so `<`, `>` and `&` become `\u003c`-style escapes (still the same JSON
 * value); U+2028/U+2029 are escaped too so the text is also safe as a JavaScript literal.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A review page's JSON-LD: the review itself, about the practice. `itemReviewed` names the same
 * business node as every other page (its `@id`, type, name and address), without the aggregate
 * rating, so a new review elsewhere does not change this page's bytes.
 */
export function reviewPageJsonLd(business: Business, review: ReviewRecord, homeUrl: string): JsonLd {
  const node = localBusinessJsonLd({ business, aggregate: NO_REVIEWS, reviews: [], homeUrl });
  return {
    "@context": "https://schema.org",
    ...reviewJsonLd(review),
    itemReviewed: { "@type": node["@type"], "@id": node["@id"], name: node.name, url: node.url, address: node.address },
  };
}

const NO_REVIEWS: AggregateRating = {
  rating_value: 0,
  review_count: 0,
  best_rating: 5,
  worst_rating: 1,
  distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 },
};
