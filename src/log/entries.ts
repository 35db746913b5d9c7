import { z } from "zod";
import { type ReviewRecord, ReviewRecordSchema } from "../content/records.ts";
import { CalendarDate, Id, WITHDRAWAL_REASONS, type WithdrawalReason } from "../content/schema.ts";

/**
 * The log's entries: one UTF-8 JSON object per event, `{"event": "published" | "amended", "id",
 * "review"}` or `{"event": "withdrawn", "id", "reason", "date"}`, and the entry bundles of
 * tlog-tiles that carry them (each entry as a big-endian uint16 length and its bytes).
 */

/** Record fields the build derives (links, text analysis, the log itself): not part of what is logged. */
export const DERIVED_FIELDS = ["url", "aspects", "log_index"] as const;

/** The logged part of a record, as `/reviews.json` serves it minus the derived fields. */
export const LoggedReviewSchema = ReviewRecordSchema.omit({ url: true, aspects: true, log_index: true });
export type LoggedReview = z.infer<typeof LoggedReviewSchema>;

const LOGGED_KEYS = Object.keys(LoggedReviewSchema.shape) as (keyof LoggedReview)[];

/**
 * The logged fields of `record` in the record's own key order, whatever else the object carries:
 * the entry's bytes depend on the fields' values only.
 */
export function loggedReview(record: Omit<ReviewRecord, (typeof DERIVED_FIELDS)[number]> | ReviewRecord): LoggedReview {
  const out: Record<string, unknown> = {};
  for (const k of LOGGED_KEYS) out[k] = record[k];
  return out as LoggedReview;
}

export const LogEntrySchema = z.discriminatedUnion("event", [
  z.object({ event: z.enum(["published", "amended"]), id: Id, review: z.record(z.string(), z.unknown()) }),
  z.object({ event: z.literal("withdrawn"), id: Id, reason: z.enum(WITHDRAWAL_REASONS), date: CalendarDate }),
]);
export type LogEntry =
  | { event: "published" | "amended"; id: string; review: LoggedReview }
  | { event: "withdrawn"; id: string; reason: WithdrawalReason; date: string };

/** The longest entry a bundle can carry (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

export function encodeEntry(e: LogEntry): Uint8Array {
  if (e.event !== "withdrawn") return reviewEntry(e.event, e.id, JSON.stringify(loggedReview(e.review)));
  return checkedSize(e.id, Buffer.from(JSON.stringify({ event: e.event, id: e.id, reason: e.reason, date: e.date })));
}

/**
 * A review entry from the review's JSON (`JSON.stringify(loggedReview(r))`), the same bytes as
 * `encodeEntry` writes: the build serialises each review once and compares those bytes with the
 * logged ones (plan.ts).
 */
export function reviewEntry(event: "published" | "amended", id: string, reviewJson: string): Uint8Array {
  return checkedSize(id, Buffer.from(`{"event":"${event}","id":${JSON.stringify(id)},"review":${reviewJson}}`));
}

function checkedSize(id: string, bytes: Uint8Array): Uint8Array {
  if (bytes.length > MAX_ENTRY_BYTES) {
    throw new RangeError(
      `review ${id}: its log entry is ${bytes.length} bytes, above the ${MAX_ENTRY_BYTES} a log entry may have`,
    );
  }
  return bytes;
}

/** Parses an entry's bytes; throws with the reason when they are not an entry of this log. */
export function decodeEntry(bytes: Uint8Array): z.infer<typeof LogEntrySchema> {
  return LogEntrySchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8")));
}

/** An entry bundle: every entry as a big-endian uint16 length, then its bytes. */
export function encodeBundle(entries: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(e.length);
    parts.push(len, e);
  }
  return Buffer.concat(parts);
}

/** The entries of a bundle; throws when the bytes do not split into whole entries. */
export function decodeBundle(bundle: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const b = Buffer.from(bundle.buffer, bundle.byteOffset, bundle.byteLength);
  let at = 0;
  while (at < b.length) {
    if (at + 2 > b.length) throw new Error("entry bundle ends inside a length prefix");
    const len = b.readUInt16BE(at);
    if (at + 2 + len > b.length) throw new Error("entry bundle ends inside an entry");
    out.push(b.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}
