import { z } from "zod";
import { ReviewAspectSchema, ReviewRecordSchema } from "../content/records.ts";
import { Timestamp } from "../content/schema.ts";

/**
 * The JSON Feed 1.1 document `/api/feed.json` serves (https://jsonfeed.org/version/1.1): the spec's
 * fields this feed uses, typed, plus the `_review` extension. The renderer is typed by it and
 * `/openapi.json` declares it, so a generated client gets real types instead of a bare object.
 */

const AuthorSchema = z.object({ name: z.string(), url: z.string().optional() });

export const JsonFeedItemSchema = z
  .object({
    id: z.string().describe("A tag: URI, stable for the review."),
    url: z.string().describe("The review's permalink."),
    title: z.string(),
    content_text: z.string(),
    date_published: Timestamp.describe("RFC 3339."),
    date_modified: Timestamp.describe(
      "RFC 3339: the latest of the publication, the owner's reply date, and the day the review log recorded an amendment or a restoration of the review (midnight UTC).",
    ),
    authors: z.array(AuthorSchema),
    tags: z.array(z.string()).describe("`rating:<n>`, then the technician and service ids."),
    _review: z
      .object({
        about: z.string().describe("Where this extension is described: the OpenAPI document."),
        rating: z.number().int().min(1).max(5),
        technicians: z.array(z.string()),
        services: z.array(z.string()),
        service_areas: z.array(z.string()),
        aspects: z.array(ReviewAspectSchema),
        log_index: ReviewRecordSchema.shape.log_index,
        log_nonce: ReviewRecordSchema.shape.log_nonce,
      })
      .describe(
        "Extension (JSON Feed §5): the review's structured fields, with the same `log_index` and `log_nonce` as its record in /reviews.json.",
      ),
  })
  .meta({ id: "JsonFeedItem" });
export type JsonFeedItem = z.infer<typeof JsonFeedItemSchema>;

export const JsonFeedSchema = z
  .object({
    version: z.literal("https://jsonfeed.org/version/1.1"),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string(),
    language: z.string(),
    authors: z.array(AuthorSchema),
    hubs: z.array(z.object({ type: z.string(), url: z.string() })).describe("WebSub hubs for this feed."),
    items: z.array(JsonFeedItemSchema).describe("The newest reviews, newest first."),
  })
  .meta({ id: "JsonFeed", description: "A JSON Feed 1.1 document (https://jsonfeed.org/version/1.1)." });
export type JsonFeed = z.infer<typeof JsonFeedSchema>;
