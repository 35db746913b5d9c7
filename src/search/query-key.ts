import type { SearchParamName, SearchQuery } from "./query.ts";

/** The canonical form of a validated search query: what `next` repeats and what its key names. */

/** The validated values of a query, before its canonical form is derived. */
export type QueryFields = Omit<SearchQuery, "canonical" | "key">;

/**
 * Adds the canonical parameters and key to validated values. Every parser ends here, so a query
 * has one canonical form whichever path validated it.
 */
export function buildQuery(f: QueryFields): SearchQuery {
  const canonical: [SearchParamName, string][] = [];
  if (f.rating !== undefined) canonical.push(["rating", String(f.rating)]);
  if (f.min_rating !== undefined) canonical.push(["min_rating", String(f.min_rating)]);
  if (f.since) canonical.push(["since", f.since]);
  if (f.until) canonical.push(["until", f.until]);
  if (f.query) canonical.push(["query", f.queryText ?? f.query]);
  if (f.technician) canonical.push(["mentions_technician", f.technician]);
  if (f.service) canonical.push(["mentions_service", f.service]);
  if (f.aspect) canonical.push(["aspect", f.aspect]);
  if (f.aspect && f.sentiment) canonical.push(["sentiment", f.sentiment]);
  canonical.push(["limit", String(f.limit)]);
  return {
    rating: f.rating,
    min_rating: f.min_rating,
    since: f.since,
    until: f.until,
    query: f.query,
    queryText: f.queryText,
    technician: f.technician,
    service: f.service,
    aspect: f.aspect,
    sentiment: f.sentiment,
    limit: f.limit,
    offset: f.offset,
    canonical,
    key: new URLSearchParams([...canonical, ["offset", String(f.offset)]]).toString(),
  };
}
