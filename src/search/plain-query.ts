import { isCalendarDate } from "../content/dates.ts";
import { type AspectRef, type Business, SENTIMENTS } from "../content/records.ts";
import { codePoints } from "./param-types.ts";
import {
  buildQuery,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY_LENGTH,
  normalizeText,
  type QueryFields,
  resolveTechnician,
  SEARCH_PARAMS,
  type SearchQuery,
} from "./query.ts";

/**
 * The fast path of search validation: parameters as a browser or a link sends them (each name
 * once, each value a plain string already in its usual form, e.g. `rating=5`, `since=2025-01-31`,
 * `limit=50`) are turned into a query without the zod schema, whose set-up per call was most of
 * the parsing cost of a search that missed the cache. Anything else (a number from MCP, spaces
 * around a number, a repeated or unknown name, any invalid value) returns `undefined`, and the
 * caller runs `parseSearchParams`, which reports issues exactly as before. Whenever this returns a
 * query, it is the one `parseSearchParams` returns (a fast-check property in
 * test/src/search/plain-query.test.ts).
 */

const RATING = /^[1-5]$/;
const MIN_RATING = /^[1-5](\.\d{1,6})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COUNT = /^(?:0|[1-9]\d{0,14})$/;
const KNOWN = new Set<string>(SEARCH_PARAMS);

export function parsePlainSearchParams(
  input: Record<string, unknown>,
  business: Business,
  aspects: readonly AspectRef[] = [],
): SearchQuery | undefined {
  const f: QueryFields = { limit: DEFAULT_LIMIT, offset: 0 };
  for (const name in input) {
    const v = input[name];
    if (!KNOWN.has(name) || typeof v !== "string") return undefined;
    switch (name) {
      case "rating":
        if (!RATING.test(v)) return undefined;
        f.rating = Number(v);
        break;
      case "min_rating": {
        const x = Number(v);
        if (!MIN_RATING.test(v) || x > 5) return undefined;
        f.min_rating = x;
        break;
      }
      case "since":
      case "until":
        if (!DATE.test(v) || !isCalendarDate(v)) return undefined;
        f[name] = v;
        break;
      case "query": {
        if (v.length > MAX_QUERY_LENGTH && codePoints(v) > MAX_QUERY_LENGTH) return undefined;
        f.query = normalizeText(v) || undefined;
        break;
      }
      case "mentions_technician":
        f.technician = resolveTechnician(business, v);
        if (!f.technician) return undefined;
        break;
      case "mentions_service":
        f.service = business.services.find((s) => s.id === v)?.id;
        if (!f.service) return undefined;
        break;
      case "aspect":
        f.aspect = aspects.find((a) => a.id === v)?.id;
        if (!f.aspect) return undefined;
        break;
      case "sentiment":
        if (!(SENTIMENTS as readonly string[]).includes(v)) return undefined;
        f.sentiment = v as QueryFields["sentiment"];
        break;
      case "limit": {
        const x = Number(v);
        if (!COUNT.test(v) || x < 1 || x > MAX_LIMIT) return undefined;
        f.limit = x;
        break;
      }
      case "offset":
        if (!COUNT.test(v)) return undefined;
        f.offset = Number(v);
        break;
    }
  }
  // An error that needs two parameters: left to the full validation to word.
  if (f.sentiment !== undefined && f.aspect === undefined) return undefined;
  return buildQuery(f);
}
