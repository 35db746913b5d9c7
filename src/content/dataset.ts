import { nonceSource } from "../log/commitment.ts";
import type { LoggedReview } from "../log/entries.ts";
import { type LogPosition, planLog } from "../log/plan.ts";
import { aggregate } from "./aggregate.ts";
import { createMatcher } from "./mentions.ts";
import type { AspectRef, ReviewAspect, ReviewRecord, ReviewsDataset, Sentiment } from "./records.ts";
import type { CatalogueItem } from "./schema.ts";
import type { Content, ReviewEntry } from "./validate.ts";

/** Newest first: date descending, then id ascending. The one ordering every list uses. */
export function compareReviews(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The month archive that lists a review among its month's: one page per month keeps pages small at 100k reviews. */
export function archivePath(date: string): string {
  return `/reviews/${date.slice(0, 4)}/${date.slice(5, 7)}/`;
}

/**
 * A review's own page. One path segment under `/reviews/`, where the month archives take two
 * (`/reviews/YYYY/MM/`), so the two can never name the same file, whatever a review's id is.
 */
export function reviewPath(id: string): string {
  return `/reviews/${id}/`;
}

/** The review's permalink: its own page, which does not move when the review's date is corrected. */
export function permalink(baseUrl: string, r: { id: string }): string {
  return `${baseUrl}${reviewPath(r.id)}`;
}

function resolveMentions(
  explicit: readonly string[],
  text: string,
  catalogue: readonly CatalogueItem[],
  detect: (t: string) => string[],
): string[] {
  const ids = new Set([...explicit, ...detect(text)]);
  // Catalogue order keeps output canonical however the editor ordered explicit ids.
  return catalogue.filter((c) => ids.has(c.id)).map((c) => c.id);
}

/** Score of an editor's label where the machine read otherwise (or not at all). */
export const EDITOR_SCORE: Record<Sentiment, number> = { positive: 0.5, neutral: 0, negative: -0.5 };

/** The editor's labels of a content file as the record first carries them, ordered by aspect id. */
export function editorAspects(labels: Readonly<Record<string, Sentiment>> | undefined): ReviewAspect[] {
  if (!labels) return [];
  return Object.keys(labels)
    .sort()
    .map((id) => {
      const sentiment = labels[id] as Sentiment;
      return { id, sentiment, score: EDITOR_SCORE[sentiment], source: "editor" as const };
    });
}

/** A review's technicians, services and service areas, as `reviewFields` resolves them. */
export type Mentions = Pick<LoggedReview, "technicians" | "services" | "service_areas">;

/**
 * Mentions `reviewFields` resolved before for the same review (its explicit ids and the text it
 * scans) and the same catalogue: the build keeps them between builds (src/io/yaml-cache.ts), as
 * matching every catalogue name against every review's text is most of what this costs.
 */
export interface MentionsMemo {
  get(review: ReviewEntry, scanned: string): Mentions | undefined;
  put(review: ReviewEntry, scanned: string, mentions: Mentions): void;
}

/** The memo of the mentions resolved under one catalogue (a business file's), for each build. */
export type MentionsCache = (business: Content["business"]) => MentionsMemo;

/**
 * The fields of each review that the review log records (every record field but `url`, `aspects`
 * and `log_index`), in the records' order. Mentions are explicit ids plus those detected in the
 * review text (not the owner's reply: a reply naming a doctor says nothing about the visit).
 */
export function reviewFields(content: Content, memo?: MentionsMemo): LoggedReview[] {
  const { business } = content;
  const tech = createMatcher(business.technicians);
  const svc = createMatcher(business.services);
  const area = createMatcher(business.service_areas);
  const resolve = (r: ReviewEntry, scanned: string): Mentions => ({
    technicians: resolveMentions(r.technicians, scanned, business.technicians, (t) => tech.detect(t)),
    services: resolveMentions(r.services, scanned, business.services, (t) => svc.detect(t)),
    service_areas: resolveMentions(r.service_areas, scanned, business.service_areas, (t) => area.detect(t)),
  });
  return content.reviews.map((r): LoggedReview => {
    const scanned = r.title ? `${r.title}\n${r.text}` : r.text;
    let mentions = memo?.get(r, scanned);
    if (!mentions) {
      mentions = resolve(r, scanned);
      memo?.put(r, scanned, mentions);
    }
    return {
      id: r.id,
      date: r.date,
      published_at: r.published_at,
      rating: r.rating,
      author: r.author,
      title: r.title ?? null,
      text: r.text,
      source: { platform: r.source.platform, url: r.source.url ?? null },
      verification: { method: r.verification.method, verified_on: r.verification.verified_on },
      technicians: mentions.technicians,
      services: mentions.services,
      service_areas: mentions.service_areas,
      response: r.response ? { date: r.response.date, text: r.response.text } : null,
    };
  });
}

/** Each review's editor labels (`editorAspects`), by id: what a record's `aspects` starts as. */
export function editorLabels(content: Content): Map<string, ReviewAspect[]> {
  return new Map(content.reviews.map((r) => [r.id, editorAspects(r.aspects)]));
}

/**
 * Published records of `fields` (see `reviewFields`), newest first. `logIndex` is each review's
 * latest entry in the review log; by default, the positions of a new log of just this content
 * under an all-zero nonce key (records that no build logs: `npm run check -- --explain`, evaluations).
 * `aspects` holds only an editor's labels here (`labels`, source "editor", none for most
 * reviews): the insights analysis (`analyzeReviews`) fills in the machine's reading where there
 * are none.
 */
export function recordsOf(
  fields: readonly LoggedReview[],
  baseUrl: string,
  logIndex: ReadonlyMap<string, LogPosition> = unloggedPositions(fields),
  labels: ReadonlyMap<string, ReviewAspect[]> = new Map(),
): ReviewRecord[] {
  return fields
    .map(({ response, ...f }): ReviewRecord => {
      const at = logIndex.get(f.id);
      if (at === undefined) throw new Error(`review ${f.id} has no entry in the review log`);
      const aspects = labels.get(f.id) ?? [];
      return { ...f, url: permalink(baseUrl, f), response, log_index: at.index, log_nonce: at.nonce, aspects };
    })
    .sort(compareReviews);
}

function unloggedPositions(fields: readonly LoggedReview[]): Map<string, LogPosition> {
  return planLog(
    [],
    { reviews: fields, withdrawn: [] },
    { nonce: nonceSource(new Uint8Array(32)), today: "1970-01-01" },
  ).positions;
}

/** Turns validated content into published records, as logged by a new log (see `recordsOf`). */
export function buildRecords(content: Content, baseUrl: string): ReviewRecord[] {
  return recordsOf(reviewFields(content), baseUrl, undefined, editorLabels(content));
}

/** The dataset of `reviews` (already built records); `aspects` lists the analysed aspects. */
export function datasetOf(
  business: Content["business"],
  reviews: ReviewRecord[],
  aspects: readonly AspectRef[] = [],
): ReviewsDataset {
  return { business, aggregate_rating: aggregate(reviews), aspects: [...aspects], reviews };
}

/** The dataset without the insights analysis: every review's `aspects` is empty. */
export function buildDataset(content: Content, baseUrl: string): ReviewsDataset {
  return datasetOf(content.business, buildRecords(content, baseUrl));
}
