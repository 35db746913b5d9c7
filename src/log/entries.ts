import { z } from "zod";
import { type ReviewRecord, ReviewRecordSchema } from "../content/records.ts";
import { CalendarDate, Id, WITHDRAWAL_REASONS, type WithdrawalReason } from "../content/schema.ts";

/**
 * The log's entries: one UTF-8 JSON object per event, `{"event": "published" | "amended" |
 * "restored", "id", "logged", "commitment"}` or `{"event": "withdrawn", "id", "reason", "date",
 * "logged"}`, and the entry bundles of tlog-tiles that carry them (each entry as a big-endian
 * uint16 length and its bytes). An entry never holds a review's text, title or author: it commits
 * to the record (commitment.ts), which the site serves with its `log_nonce`.
 */

/** Record fields the build derives (links, text analysis, the log itself): not part of what is logged. */
export const DERIVED_FIELDS = ["url", "aspects", "log_index", "log_nonce"] as const;

/** The logged part of a record, as `/reviews.json` serves it minus the derived fields. */
export const LoggedReviewSchema = ReviewRecordSchema.omit({
  url: true,
  aspects: true,
  log_index: true,
  log_nonce: true,
});
export type LoggedReview = z.infer<typeof LoggedReviewSchema>;

export const LOGGED_KEYS = Object.keys(LoggedReviewSchema.shape) as (keyof LoggedReview)[];

/** The logged fields of `record`, whatever else the object carries. */
export function loggedReview(record: Omit<ReviewRecord, (typeof DERIVED_FIELDS)[number]> | ReviewRecord): LoggedReview {
  const out: Record<string, unknown> = {};
  for (const k of LOGGED_KEYS) out[k] = record[k];
  return out as LoggedReview;
}

/** Events that put a review on the public list; `restored` follows a withdrawal. */
export const RECORD_EVENTS = ["published", "amended", "restored"] as const;
export const LOG_EVENTS = ["published", "amended", "withdrawn", "restored"] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];

const Commitment = z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "a base64 SHA-256 hash");

export const LogEntrySchema = z.discriminatedUnion("event", [
  z.strictObject({ event: z.enum(RECORD_EVENTS), id: Id, logged: CalendarDate, commitment: Commitment }),
  z.strictObject({
    event: z.literal("withdrawn"),
    id: Id,
    reason: z.enum(WITHDRAWAL_REASONS),
    date: CalendarDate,
    logged: CalendarDate,
  }),
]);
export type LogEntry =
  | { event: (typeof RECORD_EVENTS)[number]; id: string; logged: string; commitment: string }
  | { event: "withdrawn"; id: string; reason: WithdrawalReason; date: string; logged: string };

/** The longest entry a bundle can carry (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

/** An entry's bytes, its keys in the order above. */
export function encodeEntry(e: LogEntry): Uint8Array {
  const json =
    e.event === "withdrawn"
      ? { event: e.event, id: e.id, reason: e.reason, date: e.date, logged: e.logged }
      : { event: e.event, id: e.id, logged: e.logged, commitment: e.commitment };
  const bytes = Buffer.from(JSON.stringify(json));
  if (bytes.length > MAX_ENTRY_BYTES)
    throw new RangeError(`the log entry of ${e.id} is longer than ${MAX_ENTRY_BYTES} bytes`);
  return bytes;
}

/** Parses an entry's bytes; throws with the reason when they are not an entry of this log. */
export function decodeEntry(bytes: Uint8Array): LogEntry {
  const entry = LogEntrySchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8"))) as LogEntry;
  // One encoding per entry: a member twice (readers differ on which they keep), spaces or escapes
  // would let two monitors read one signed entry two ways.
  if (!Buffer.from(encodeEntry(entry)).equals(Buffer.from(bytes)))
    throw new Error(
      "its bytes are not the entry as this log writes it (each member once, in order, no spaces or escapes)",
    );
  return entry;
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
