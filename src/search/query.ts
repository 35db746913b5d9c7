import { z } from "zod";
import type { QueryIssueSchema } from "../api/schemas.ts";
import { type AspectRef, type Business, SENTIMENTS } from "../content/records.ts";
import { CalendarDate } from "../content/schema.ts";
import { codePoints, intParam, numParam, textParam } from "./param-types.ts";
import { buildQuery } from "./query-key.ts";

/**
 * The search contract shared by `GET /api/reviews/search`, the MCP `search_reviews` tool and
 * `/openapi.json`. Input arrives as strings (HTTP) or JSON values (MCP); both go through
 * `parseSearchParams`, so a bad value gets the same issue wording at either door.
 */

export const SEARCH_PARAMS = [
  "rating",
  "min_rating",
  "since",
  "until",
  "query",
  "mentions_technician",
  "mentions_service",
  "aspect",
  "sentiment",
  "limit",
  "offset",
] as const;
export type SearchParamName = (typeof SEARCH_PARAMS)[number];

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** 2^53-1: past it a JSON number is no longer exactly an integer. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** An issue as returned in a 400 body and an MCP `isError` result. */
export type QueryIssue = z.infer<typeof QueryIssueSchema>;

/** The valid form of every parameter; `.describe()` texts feed OpenAPI and MCP tool schemas. */
export const SearchParamsSchema = z
  .strictObject({
    rating: intParam(1, 5, "expected an integer from 1 to 5")
      .optional()
      .describe("Only reviews with exactly this star rating (integer 1-5)."),
    min_rating: numParam(1, 5, "expected a number from 1 to 5")
      .optional()
      .describe("Only reviews rated at least this (number 1-5, inclusive)."),
    since: CalendarDate.optional().describe("Only reviews dated on or after this day (YYYY-MM-DD, inclusive)."),
    until: CalendarDate.optional().describe("Only reviews dated on or before this day (YYYY-MM-DD, inclusive)."),
    query: textParam("a search text")
      // Code points, as JSON Schema's maxLength counts them (zod's `.max` counts UTF-16 units).
      .refine((q) => codePoints(q) <= MAX_QUERY_LENGTH, {
        error: (i) => `expected at most ${MAX_QUERY_LENGTH} characters, got ${codePoints(i.input as string)}`,
      })
      .meta({ maxLength: MAX_QUERY_LENGTH })
      .optional()
      .describe(
        `Case-insensitive substring of the review text; whitespace is normalised; at most ${MAX_QUERY_LENGTH} characters (code points) as sent; empty means no filter.`,
      ),
    mentions_technician: textParam("a technician name, alias or id")
      .optional()
      .describe('Technician name, alias or id, case-insensitive (e.g. "Dr. Patel", "anika-patel").'),
    mentions_service: textParam("a service id")
      .optional()
      .describe('Service id from the business catalogue (e.g. "massage-therapy").'),
    aspect: textParam("an aspect id")
      .optional()
      .describe(
        'Only reviews that discuss this aspect (an id from the `aspects` of /reviews.json, e.g. "billing"), per their `aspects` annotation.',
      ),
    sentiment: z
      .enum(SENTIMENTS, { error: `expected one of ${SENTIMENTS.join(", ")}` })
      .optional()
      .describe("With `aspect`: only reviews whose annotation of that aspect has this sentiment."),
    limit: intParam(1, MAX_LIMIT, `expected an integer from 1 to ${MAX_LIMIT}`)
      .optional()
      .describe(`Page size, 1-${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`),
    offset: intParam(0, MAX_OFFSET, `expected an integer from 0 to ${MAX_OFFSET}`)
      .optional()
      .describe("Number of matches to skip; default 0."),
  })
  // Checked in `parseAspect`; stated here so the generated document says it too.
  .meta({ dependentRequired: { sentiment: ["aspect"] } });

/** A validated, normalised query: ids resolved, defaults applied. */
export const SearchQuerySchema = z.object({
  rating: z.number().int().optional(),
  min_rating: z.number().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  /** Lower-cased, whitespace-collapsed, trimmed; absent when empty. */
  query: z.string().optional(),
  /**
   * `query` as `next` and the key repeat it, when that is not `query` itself: folding can make a
   * text longer than `MAX_QUERY_LENGTH` (İ lower-cases to two code points), and then the text as
   * sent, whitespace collapsed, is repeated, which the server takes back.
   */
  queryText: z.string().optional(),
  /** Technician id resolved from the name/alias given. */
  technician: z.string().optional(),
  service: z.string().optional(),
  aspect: z.string().optional(),
  sentiment: z.enum(SENTIMENTS).optional(),
  limit: z.number().int(),
  offset: z.number().int(),
  /** The parameters, except offset, as they appear in a canonical URL (for `next`), in `SEARCH_PARAMS` order. */
  canonical: z.array(z.tuple([z.enum(SEARCH_PARAMS), z.string()])),
  /**
   * The canonical query string, offset included: equivalent inputs (reordered parameters, an alias
   * for an id, `min_rating=4.0` for `4`, defaults spelt out or left out, spacing and case in the
   * text) give the same key, so they share one ETag and one cache entry.
   */
  key: z.string(),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export type ParseResult = { ok: true; query: SearchQuery } | { ok: false; issues: QueryIssue[] };

/** Collapses runs of whitespace and lower-cases: the same normalisation is applied to review text. */
export function normalizeText(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * `query` and review texts as compared: composed (NFC), so "café" sent as e + U+0301 finds é
 * (Unicode C6), and with the final sigma ς read as σ, as case folding reads it: `toLowerCase`
 * gives Σ as ς at a word's end only, so "ΟΔΥΣ" would miss "Οδυσσέας".
 */
export function searchText(s: string): string {
  return normalizeText(s).normalize("NFC").replaceAll("ς", "σ");
}

const norm = (s: string) =>
  normalizeText(s)
    .replace(/[.\s]+/g, " ")
    .trim();

/** Per catalogue: every technician's normalised id, name and alias to its id, the first technician winning. */
const technicianNames = new WeakMap<Business, Map<string, string>>();

/** Resolves a technician name, alias or id, ignoring case, extra spaces and dots ("dr patel"). */
export function resolveTechnician(business: Business, given: string): string | undefined {
  let names = technicianNames.get(business);
  if (!names) {
    names = new Map();
    for (const t of business.technicians) {
      for (const n of [t.id, t.name, ...t.aliases]) if (!names.has(norm(n))) names.set(norm(n), t.id);
    }
    technicianNames.set(business, names);
  }
  return names.get(norm(given));
}

/**
 * Where search input comes from. In a `"query-string"` (HTTP) a parameter given several times
 * arrives as an array of its values; in `"json"` (MCP arguments) a name cannot repeat, so an
 * array is a value like any other, of the wrong type.
 */
export type ParamSource = "query-string" | "json";

/**
 * Validates search input. `input` maps parameter names to values; a parameter repeated in a query
 * string is reported, as is any name not in `SEARCH_PARAMS`. `aspects` are the dataset's aspects,
 * the valid values of `aspect`.
 */
export function parseSearchParams(
  input: Record<string, unknown>,
  source: ParamSource,
  business: Business,
  aspects: readonly AspectRef[] = [],
): ParseResult {
  const issues: QueryIssue[] = [];
  // Null prototype: only the names below are ever set, but a stray `__proto__` must stay data.
  const single: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(input)) {
    if (!(SEARCH_PARAMS as readonly string[]).includes(key)) {
      issues.push({ path: key, value, message: `unknown parameter; valid parameters are ${SEARCH_PARAMS.join(", ")}` });
    } else if (source === "query-string" && Array.isArray(value)) {
      issues.push({ path: key, value, message: `given ${value.length} times; give it at most once` });
    } else if (value !== undefined && value !== null) {
      single[key] = value;
    }
  }
  const parsed = SearchParamsSchema.safeParse(single);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const key = String(i.path[0] ?? "");
      if (i.code === "unrecognized_keys") continue; // already reported above
      issues.push({ path: key, value: single[key], message: i.message });
    }
  }
  const p = parsed.success ? parsed.data : ({} as z.infer<typeof SearchParamsSchema>);

  // A `since` after `until` is a valid, empty range: JSON Schema cannot compare two values, and
  // the document must predict every refusal.
  let query: string | undefined;
  let queryText: string | undefined;
  if (typeof p.query === "string") {
    query = searchText(p.query) || undefined;
    if (query && codePoints(query) > MAX_QUERY_LENGTH) queryText = p.query.replace(/\s+/g, " ").trim();
  }
  // The names are checked from the raw values too: another parameter's error fails the schema
  // parse as a whole, and must not hide an unknown technician or service (every issue is listed).
  const raw = (name: "mentions_technician" | "mentions_service") =>
    typeof single[name] === "string" ? (single[name] as string) : p[name];
  const givenTechnician = raw("mentions_technician");
  let technician: string | undefined;
  if (givenTechnician !== undefined) {
    technician = resolveTechnician(business, givenTechnician);
    if (!technician) {
      const valid = business.technicians.map((t) => `${t.name} (${[t.id, ...t.aliases].join(", ")})`).join("; ");
      issues.push({
        path: "mentions_technician",
        value: givenTechnician,
        message: `unknown technician; valid technicians are ${valid}`,
      });
    }
  }
  const givenService = raw("mentions_service");
  let service: string | undefined;
  if (givenService !== undefined) {
    // Exactly an id, as the document's `enum` says.
    service = business.services.find((s) => s.id === givenService)?.id;
    if (!service) {
      issues.push({
        path: "mentions_service",
        value: givenService,
        message: `unknown service id; valid ids are ${business.services.map((s) => s.id).join(", ")}`,
      });
    }
  }
  // Raw values: an invalid sentiment must not hide an unknown aspect, nor a lone sentiment; a refused
  // aspect (repeated, not a string) has its own issue, and was still sent.
  const givenAspect = typeof single.aspect === "string" ? single.aspect : p.aspect;
  const aspectSent = Object.hasOwn(input, "aspect") && input.aspect != null;
  const aspect = parseAspect(givenAspect, aspectSent, single.sentiment, aspects, issues);
  if (issues.length > 0 || !parsed.success) return { ok: false, issues };

  return {
    ok: true,
    query: buildQuery({
      ...p,
      query,
      queryText,
      technician,
      service,
      aspect,
      sentiment: aspect ? p.sentiment : undefined,
      limit: p.limit ?? DEFAULT_LIMIT,
      offset: p.offset ?? 0,
    }),
  };
}

/** `aspect` must name one of the dataset's aspects; `sentiment` only narrows one `sent`, valid or not. */
function parseAspect(
  given: string | undefined,
  sent: boolean,
  sentiment: unknown,
  aspects: readonly AspectRef[],
  issues: QueryIssue[],
): string | undefined {
  if (sentiment !== undefined && !sent) {
    issues.push({
      path: "sentiment",
      value: sentiment,
      message:
        "needs the aspect parameter too; sentiment filters the reviews of one aspect (e.g. aspect=billing&sentiment=negative)",
    });
  }
  if (given === undefined) return undefined;
  const found = aspects.find((a) => a.id === given)?.id;
  if (!found) {
    const valid =
      aspects.length > 0 ? `valid ids are ${aspects.map((a) => a.id).join(", ")}` : "this dataset has no aspects";
    issues.push({ path: "aspect", value: given, message: `unknown aspect id; ${valid}` });
  }
  return found;
}
