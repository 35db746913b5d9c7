import fc from "fast-check";
import type { Business, ReviewRecord } from "../../src/content/records.ts";

/**
 * The obvious implementation the search index must agree with, and the random parameters the
 * property tests feed both. Shared by the service test and the HTTP/cache test.
 */
export function referenceSearch(reviews: ReviewRecord[], business: Business, p: Record<string, string>) {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase().normalize("NFC").replaceAll("ς", "σ");
  const name = (s: string) =>
    norm(s)
      .replace(/[.\s]+/g, " ")
      .trim();
  const tech = p.mentions_technician
    ? business.technicians.find((t) =>
        [t.id, t.name, ...t.aliases].some((n) => name(n) === name(p.mentions_technician as string)),
      )?.id
    : undefined;
  const q = p.query !== undefined ? norm(p.query) : "";
  const all = reviews.filter(
    (r) =>
      (p.rating === undefined || r.rating === Number(p.rating)) &&
      (p.min_rating === undefined || r.rating >= Number(p.min_rating)) &&
      (p.since === undefined || r.date >= p.since) &&
      (p.until === undefined || r.date <= p.until) &&
      (q === "" || norm(r.text).includes(q)) &&
      (tech === undefined || r.technicians.includes(tech)) &&
      (p.mentions_service === undefined || r.services.includes(p.mentions_service)),
  );
  const limit = Number(p.limit ?? 20);
  const offset = Number(p.offset ?? 0);
  return { all, page: all.slice(offset, offset + limit), limit, offset };
}

/** Valid search parameters as strings, as a query string carries them; since is never after until. */
export function searchParamsArbitrary(business: Business): fc.Arbitrary<Record<string, string>> {
  const words = ["back", "Dr. Bell", "  front   DESK ", "billing", "x-ray", "parking", "", "ab", "neck pain", "zzzz"];
  const techNames = ["Dr. Patel", "anika patel", "patel", "Dr. Marcus", "jenna", "tom-lindqvist", "Ms. Okafor"];
  const services = business.services.map((s) => s.id);
  const date = fc
    .date({ min: new Date("2022-12-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  return fc
    .record(
      {
        rating: fc.integer({ min: 1, max: 5 }).map(String),
        min_rating: fc.constantFrom("1", "2.5", "3", "4", "4.5", "5"),
        since: date,
        until: date,
        query: fc.constantFrom(...words),
        mentions_technician: fc.constantFrom(...techNames),
        mentions_service: fc.constantFrom(...services),
        limit: fc.integer({ min: 1, max: 100 }).map(String),
        offset: fc.integer({ min: 0, max: 150 }).map(String),
      },
      { requiredKeys: [] },
    )
    .map((p) => {
      if (p.since && p.until && p.since > p.until) [p.since, p.until] = [p.until, p.since];
      return p;
    });
}
