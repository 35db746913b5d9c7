import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { aggregate } from "../content/aggregate.ts";
import { ReviewAspectSchema } from "../content/records.ts";
import { commitment } from "./commitment.ts";
import { DERIVED_FIELDS, LOGGED_KEYS, type LogEntry, loggedReview } from "./entries.ts";
import { decodeBase64 } from "./note-keys.ts";
import { latestEntries } from "./plan.ts";

/**
 * What the site serves, checked against the log (`npm run log:verify`): every served record opens
 * the commitment of the entry at its `log_index`, and that entry is the latest for its id; every
 * review whose latest entry is not a withdrawal is served (completeness: a review the practice
 * would rather hide cannot silently go); no withdrawn review is served. Pure: the records and
 * entries are fetched by the caller.
 */

/** A served record as far as this check reads it; the rest of its fields are what it opens. */
export type ServedRecord = Record<string, unknown> & { id: string; log_index: unknown; log_nonce: unknown };

export interface SiteCheck {
  /** One sentence per failure, each naming the review. */
  problems: string[];
  records: number;
  /** Reviews whose latest entry is a withdrawal, and which are therefore not served. */
  withdrawn: number;
}

/** The fields a record may carry: what the log commits to, and what the build derives. */
const KNOWN_FIELDS = new Set<string>([...LOGGED_KEYS, ...DERIVED_FIELDS]);

/**
 * The one derived field that could carry words: the log cannot recompute it (the build's models
 * read the text), but its shape is fixed, so free text beside a record shows as a member too many.
 */
const ServedAspects = z.array(z.strictObject(ReviewAspectSchema.shape));

const rating = (r: ServedRecord) => (typeof r.rating === "number" ? ` (served with rating ${r.rating})` : "");

/**
 * The commitment a served record opens, or why it has none: JSON.parse reads values RFC 8785
 * refuses (1e400 as Infinity, an escaped lone surrogate), which a site may serve.
 */
function openedBy(nonce: Uint8Array, r: ServedRecord): string | { error: string } {
  try {
    return commitment(nonce, loggedReview(r as never));
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export function checkSite(entries: readonly LogEntry[], records: readonly ServedRecord[]): SiteCheck {
  const latest = latestEntries(entries);
  const problems: string[] = [];
  const served = new Set<string>();
  for (const r of records) {
    if (served.has(r.id)) problems.push(`${r.id} is served twice`);
    served.add(r.id);
    const unknown = Object.keys(r).filter((k) => !KNOWN_FIELDS.has(k));
    if (unknown.length > 0)
      problems.push(
        `${r.id} is served with ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which no log entry commits to`,
      );
    if ("aspects" in r && !ServedAspects.safeParse(r.aspects).success)
      problems.push(
        `${r.id} is served with aspects that are not a list of {id, sentiment, score, source}: what the log never saw is served beside the record`,
      );
    const index = r.log_index;
    const last = latest.get(r.id);
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= entries.length) {
      problems.push(
        `${r.id} names log entry ${JSON.stringify(index)}, which the log of ${entries.length} entries does not have`,
      );
      continue;
    }
    const entry = entries[index] as LogEntry;
    if (!last) {
      problems.push(`${r.id} is served, but the log has no entry for it: published without a trace`);
    } else if (last.entry.event === "withdrawn") {
      problems.push(`${r.id} is served, but it was withdrawn (log entry ${last.index}, ${last.entry.date})`);
    } else if (entry.id !== r.id) {
      problems.push(`${r.id} names log entry ${index}, which is about ${entry.id}`);
    } else if (last.index !== index) {
      problems.push(
        `${r.id} is served as log entry ${index}, but its latest entry is ${last.index} (${last.entry.event}): an old version is served`,
      );
    } else if (entry.event !== "withdrawn") {
      const nonce = typeof r.log_nonce === "string" ? decodeBase64(r.log_nonce) : undefined;
      if (nonce?.length !== 32) {
        problems.push(`${r.id}: its log_nonce is not 32 bytes of base64, so it cannot open log entry ${index}`);
      } else {
        const opened = openedBy(nonce, r);
        if (typeof opened !== "string")
          problems.push(
            `${r.id} is served as a record RFC 8785 cannot write as JSON (${opened.error}), so it cannot open log entry ${index}`,
          );
        else if (opened !== entry.commitment)
          problems.push(
            `${r.id}${rating(r)} does not match log entry ${index}: the record served is not the one logged (rewritten?)`,
          );
      }
    }
  }
  let withdrawn = 0;
  for (const [id, l] of latest) {
    if (l.entry.event === "withdrawn") withdrawn++;
    else if (!served.has(id))
      problems.push(`${id} is in the log (entry ${l.index}, ${l.entry.event}) but not served: silently removed?`);
  }
  return { problems, records: records.length, withdrawn };
}

/**
 * The dataset's `aggregate_rating` against the records served beside it: the headline rating is
 * the list's own, so one inflated beside honest records fails too. Records whose rating is no
 * star count fail their own check (they open no commitment), so they are left to it.
 */
export function aggregateProblem(where: string, served: unknown, records: readonly ServedRecord[]): string | undefined {
  if (!records.every((r) => Number.isInteger(r.rating) && (r.rating as number) >= 1 && (r.rating as number) <= 5))
    return undefined;
  const want = aggregate(records as unknown as { rating: number }[]);
  if (isDeepStrictEqual(served, want)) return undefined;
  const got = (served ?? {}) as { rating_value?: unknown; review_count?: unknown };
  return `${where} serves an aggregate_rating of ${JSON.stringify(got.rating_value)} from ${JSON.stringify(got.review_count)} reviews, but the ${records.length} records it serves give ${want.rating_value} from ${want.review_count} (and a rating distribution of ${JSON.stringify(want.distribution)}): its headline rating is not the list's`;
}
