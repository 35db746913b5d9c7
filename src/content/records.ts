import { z } from "zod";
import {
  BusinessFileSchema,
  CalendarDate,
  Id,
  SENTIMENTS,
  SOURCE_PLATFORMS,
  Timestamp,
  VERIFICATION_METHODS,
} from "./schema.ts";

/**
 * Shapes of what the service publishes. `/reviews.json`, the search and since endpoints and the MCP
 * tools all emit these records, and `/openapi.json` and the MCP output schemas are generated from
 * them, so a field added here shows up everywhere at once.
 */

export { SENTIMENTS };
export const SentimentSchema = z.enum(SENTIMENTS);
export type Sentiment = z.infer<typeof SentimentSchema>;

/** Who read a review's aspects: the annotator, or an editor whose labels replace it. */
export const ASPECT_SOURCES = ["machine", "editor"] as const;
export type AspectSource = (typeof ASPECT_SOURCES)[number];

export const ReviewAspectSchema = z
  .object({
    id: Id.describe("Aspect id, one of the dataset's `aspects` (content/insights/aspects.yaml)."),
    sentiment: SentimentSchema.describe("positive when score >= 0.05, negative when <= -0.05, else neutral."),
    score: z
      .number()
      .min(-1)
      .max(1)
      .describe("What the review says about the aspect, in [-1, 1], 3 decimals (docs/insights.md)."),
    source: z
      .enum(ASPECT_SOURCES)
      .describe(
        "`editor` when an editor confirmed the review's aspects in its content file (they replace the machine's reading), else `machine`.",
      ),
  })
  .meta({ id: "ReviewAspect" });
export type ReviewAspect = z.infer<typeof ReviewAspectSchema>;

export const AspectRefSchema = z
  .object({ id: Id, label: z.string() })
  .meta({ id: "AspectRef", description: "An aspect the reviews are analysed for; its id is stable public API." });
export type AspectRef = z.infer<typeof AspectRefSchema>;

export const ReviewRecordSchema = z
  .object({
    id: Id.describe("Stable review id (the content file name)."),
    url: z
      .string()
      .describe(
        "Permalink: the review's own page on the HTML site, {BASE_URL}/reviews/{id}/ (it depends on the id only).",
      ),
    date: CalendarDate.describe("Date of the visit review, YYYY-MM-DD."),
    published_at: Timestamp.describe("When the review was added to this site (RFC 3339)."),
    rating: z.number().int().min(1).max(5).describe("Star rating, 1 to 5."),
    author: z.string().describe("Reviewer display name."),
    title: z.string().nullable().describe("Review title, or null when the reviewer gave none."),
    text: z.string().describe("Plain-text review body."),
    source: z.object({
      platform: z.enum(SOURCE_PLATFORMS),
      url: z.string().nullable(),
    }),
    verification: z.object({
      method: z.enum(VERIFICATION_METHODS),
      verified_on: CalendarDate,
    }),
    technicians: z.array(Id).describe("Technician ids: explicit plus detected in the text."),
    services: z.array(Id).describe("Service ids: explicit plus detected in the text."),
    service_areas: z.array(Id).describe("Service-area ids: explicit plus detected in the text."),
    response: z
      .object({ date: CalendarDate, text: z.string() })
      .nullable()
      .describe("The owner's public reply, or null."),
    log_index: z
      .number()
      .int()
      .min(0)
      .describe(
        "Index in the review log (/log/) of this review's latest entry, whose `commitment` this record opens (with `log_nonce`).",
      ),
    log_nonce: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/)
      .describe(
        "Base64 of the 32-byte nonce of that entry: its commitment is base64(SHA-256(nonce || RFC 8785 JSON of this record without url, aspects, log_index and log_nonce)).",
      ),
    aspects: z
      .array(ReviewAspectSchema)
      .describe(
        "One entry per aspect the review discusses, ordered by id: the same annotations /insights.json counts.",
      ),
  })
  .meta({ id: "Review" });
export type ReviewRecord = z.infer<typeof ReviewRecordSchema>;

export const BusinessSchema = BusinessFileSchema.meta({ id: "Business" });
export type Business = z.infer<typeof BusinessSchema>;

export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().describe("Mean rating rounded to 2 decimals; 0 when there are no reviews."),
    review_count: z.number().int(),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z.object({
      "1": z.number().int(),
      "2": z.number().int(),
      "3": z.number().int(),
      "4": z.number().int(),
      "5": z.number().int(),
    }),
  })
  .meta({ id: "AggregateRating" });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export const ReviewsDatasetSchema = z
  .object({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    aspects: z
      .array(AspectRefSchema)
      .describe("Every aspect id a review's `aspects` and the search filter `aspect` can name."),
    reviews: z.array(ReviewRecordSchema).describe("Every published review, newest first (date desc, id asc)."),
  })
  .meta({ id: "ReviewsDataset" });
export type ReviewsDataset = z.infer<typeof ReviewsDatasetSchema>;
