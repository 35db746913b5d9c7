import { z } from "zod";
import { dateMessage } from "./date-forms.ts";
import { isCalendarDate, isRfc3339 } from "./dates.ts";

/**
 * Schemas of the files editors write under `content/`. These are the single source of truth: the
 * Astro content config, the build, the generator and the tests all validate with them. Messages are
 * phrased to complete "`path: field: <message>, got <value>`" (see `errors.ts`).
 */

/** Longest id: a file name, a path segment and a catalogue key, so bounded like the fields. */
export const MAX_ID_LENGTH = 100;
/** Longest link: what browsers and servers reliably accept. */
export const MAX_URL_LENGTH = 2048;
/** Most ids one review may list in each of technicians, services and service_areas. */
export const MAX_IDS = 100;

export const Id = z
  .string({ error: "expected a string id" })
  .max(MAX_ID_LENGTH, { error: `expected an id of at most ${MAX_ID_LENGTH} characters` })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "expected a kebab-case id of a-z, 0-9 and single hyphens" });

export const CalendarDate = z
  .string({ error: "expected a date as YYYY-MM-DD" })
  .refine(isCalendarDate, { error: (iss) => dateMessage(iss.input) })
  // JSON Schema's `date` format is RFC 3339's full-date, the same calendar check.
  .meta({ format: "date" });

export const Timestamp = z
  .string({ error: "expected an RFC 3339 timestamp such as 2024-03-15T09:12:00Z" })
  .refine(isRfc3339, {
    // RFC 3339 allows a lower-case t and z; Atom (RFC 4287 §3.3) and xsd:dateTime do not.
    error: (iss) =>
      typeof iss.input === "string" && isRfc3339(iss.input.toUpperCase())
        ? "expected the T and Z of the timestamp in upper case, as feeds require, such as 2024-03-15T09:12:00Z"
        : "expected an RFC 3339 timestamp such as 2024-03-15T09:12:00Z",
  });

const NonEmpty = (what: string, max: number) =>
  z
    .string({ error: `expected the ${what} as text` })
    .trim()
    .min(1, { error: `expected a non-empty ${what}` })
    .max(max, { error: `expected ${what} of at most ${max} characters` });

const HttpUrl = z
  .string({ error: "expected an absolute http(s) URL" })
  .max(MAX_URL_LENGTH, { error: `expected a URL of at most ${MAX_URL_LENGTH} characters` })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === "https:" || u.protocol === "http:";
      } catch {
        return false;
      }
    },
    { error: "expected an absolute http(s) URL" },
  );

const IdList = z
  .array(Id, { error: "expected a list of ids" })
  .max(MAX_IDS, { error: `expected at most ${MAX_IDS} ids` })
  .default([]);

export const SOURCE_PLATFORMS = ["google", "yelp", "facebook", "healthgrades", "direct"] as const;
export const VERIFICATION_METHODS = [
  "appointment_record",
  "invoice",
  "platform_verified",
  "email_confirmation",
] as const;

/**
 * Why a review may leave the public list: the published moderation policy (docs/editors.md,
 * `/log/`). Every one applies whatever the rating or sentiment; these ids are public API.
 */
export const WITHDRAWAL_REASONS = [
  "confidential-or-private",
  "defamatory-or-harassing",
  "obscene-or-discriminatory",
  "unrelated",
  "false-or-fake",
  "author-request",
] as const;
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number];

export const WithdrawnSchema = z.strictObject(
  {
    reason: z.enum(WITHDRAWAL_REASONS, { error: `expected one of ${WITHDRAWAL_REASONS.join(", ")}` }),
    date: CalendarDate,
  },
  { error: `expected withdrawn: {reason: <one of ${WITHDRAWAL_REASONS.join(", ")}>, date: YYYY-MM-DD}` },
);

const RATING = "expected a whole number from 1 to 5";

/**
 * An email address or a link where a display name goes: contact details (or an advert) that every
 * page, feed and the review log would publish, and that review:new would write into the permanent id.
 */
const CONTACT = /[^\s@]+@[^\s@]+\.[^\s@.]+|\b[a-z][a-z\d+.-]*:\/\/|\bwww\./i;

const Author = NonEmpty("author name", 100).refine((name) => !CONTACT.test(name), {
  error:
    "expected the name the reviewer signs with (first name and last initial, or initials), not an email address or a link, which would be published",
});

/** The polarities of an aspect, in the order the API lists them. */
export const SENTIMENTS = ["positive", "neutral", "negative"] as const;

/**
 * An editor's confirmed reading of a review (`aspects: {billing: positive}`): replaces the machine's.
 * Aspect ids are checked against content/insights/aspects.yaml once both are read (content-check.ts).
 */
const EditorAspects = z
  .record(
    z.string().max(MAX_ID_LENGTH, { error: `expected an aspect id of at most ${MAX_ID_LENGTH} characters` }),
    z.enum(SENTIMENTS, { error: `expected one of ${SENTIMENTS.join(", ")}` }),
    {
      // A key the id schema refuses (too long) is told in the id's words, not as no mapping at all.
      error: (iss) =>
        iss.code === "invalid_key"
          ? iss.issues[0]?.message
          : "expected a mapping of aspect id to positive, neutral or negative",
    },
  )
  .refine((labels) => Object.keys(labels).length <= MAX_IDS, {
    error: `expected at most ${MAX_IDS} aspect labels`,
  })
  // An empty map labels nothing, so the machine's reading would stand where the editor meant to replace it.
  .refine((labels) => Object.keys(labels).length > 0, {
    error:
      "expected at least one aspect labelled positive, neutral or negative (a label replaces the machine's whole reading), or no aspects line",
  });

export const ReviewFileSchema = z.strictObject(
  {
    date: CalendarDate,
    published_at: Timestamp,
    rating: z.number({ error: RATING }).int({ error: RATING }).min(1, { error: RATING }).max(5, { error: RATING }),
    author: Author,
    title: NonEmpty("title", 200).optional(),
    text: NonEmpty("review text", 5000),
    source: z.strictObject(
      {
        platform: z.enum(SOURCE_PLATFORMS, { error: `expected one of ${SOURCE_PLATFORMS.join(", ")}` }),
        url: HttpUrl.optional(),
      },
      { error: "expected a source object with platform and optional url" },
    ),
    verification: z.strictObject(
      {
        method: z.enum(VERIFICATION_METHODS, { error: `expected one of ${VERIFICATION_METHODS.join(", ")}` }),
        verified_on: CalendarDate,
      },
      { error: "expected a verification object with method and verified_on (only verified reviews are published)" },
    ),
    technicians: IdList,
    services: IdList,
    service_areas: IdList,
    response: z
      .strictObject(
        { date: CalendarDate, text: NonEmpty("response text", 5000) },
        { error: "expected a response object with date and text" },
      )
      .optional(),
    /** Takes the review off the public list; the review log records the withdrawal (docs/log.md). */
    withdrawn: WithdrawnSchema.optional(),
    aspects: EditorAspects.optional(),
  },
  { error: "expected a YAML mapping of review fields" },
);
export type ReviewFile = z.infer<typeof ReviewFileSchema>;

const CatalogueEntry = z.strictObject({
  id: Id,
  name: NonEmpty("name", 120),
  aliases: z
    .array(NonEmpty("alias", 120), { error: "expected a list of aliases" })
    .max(50, { error: "expected at most 50 aliases" })
    .default([]),
});

/** Most entries of each catalogue of business.yaml: one practice's people, services and places. */
const MAX_CATALOGUE = 500;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A latitude or longitude: a number of degrees within ±`bound`. */
const Degrees = (what: string, bound: number) => {
  const error = `expected the ${what} as a number of degrees from -${bound} to ${bound}`;
  return z.number({ error }).min(-bound, { error }).max(bound, { error });
};

/** One of business.yaml's catalogues: at least one entry, since reviews' ids name them. */
const Catalogue = <T extends z.ZodType>(entry: T) =>
  z
    .array(entry, { error: "expected a list of entries (- id: …, name: …)" })
    .min(1, { error: "expected at least one entry" })
    .max(MAX_CATALOGUE, { error: `expected at most ${MAX_CATALOGUE} entries` });
export const WEEKDAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"] as const;

export const BusinessFileSchema = z.strictObject({
  name: NonEmpty("business name", 200),
  description: NonEmpty("description", 2000),
  url: HttpUrl,
  telephone: NonEmpty("telephone number", 40),
  email: z
    .email({ error: "expected an email address" })
    .max(254, { error: "expected an email address of at most 254 characters" })
    .optional(),
  address: z.strictObject(
    {
      street_address: NonEmpty("street address", 200),
      locality: NonEmpty("locality", 100),
      region: NonEmpty("region", 100),
      postal_code: NonEmpty("postal code", 20),
      country: z.string().regex(/^[A-Z]{2}$/, { error: "expected an ISO 3166 two-letter country code" }),
    },
    { error: "expected an address with street_address, locality, region, postal_code and country" },
  ),
  geo: z.strictObject(
    { latitude: Degrees("latitude", 90), longitude: Degrees("longitude", 180) },
    { error: "expected geo: with latitude and longitude in degrees" },
  ),
  opening_hours: z
    .array(
      z.strictObject(
        {
          days: z
            .array(z.enum(WEEKDAYS, { error: `expected day codes ${WEEKDAYS.join(", ")}` }), {
              error: `expected a list of day codes ${WEEKDAYS.join(", ")}`,
            })
            .min(1, { error: "expected at least one day" })
            .max(7, { error: "expected at most 7 days" }),
          opens: z.string({ error: "expected a time as HH:MM" }).regex(TIME, { error: "expected a time as HH:MM" }),
          closes: z.string({ error: "expected a time as HH:MM" }).regex(TIME, { error: "expected a time as HH:MM" }),
        },
        { error: "expected an entry with days, opens and closes" },
      ),
      { error: "expected a list of opening hours" },
    )
    .max(50, { error: "expected at most 50 opening-hours entries" }),
  technicians: Catalogue(CatalogueEntry.extend({ title: NonEmpty("title", 120) })),
  services: Catalogue(CatalogueEntry),
  service_areas: Catalogue(CatalogueEntry),
});
export type BusinessFile = z.infer<typeof BusinessFileSchema>;
export type CatalogueItem = z.infer<typeof CatalogueEntry>;
