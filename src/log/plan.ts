import type { WithdrawalReason } from "../content/schema.ts";
import { decodeEntry, encodeEntry, type LoggedReview, loggedReview, reviewEntry } from "./entries.ts";

/**
 * What a build appends to the log: the difference between the log so far and the content now.
 * A review the log has never seen is `published`; one whose logged fields changed is `amended`;
 * one whose file says `withdrawn:` is `withdrawn` (once, or again if the reason or date changes);
 * one withdrawn and then restored is `published` again. A logged review whose file is gone is
 * not something a log can express: it is reported, and the build refuses it (docs/log.md).
 */

export interface Withdrawal {
  id: string;
  reason: WithdrawalReason;
  date: string;
}

export interface CurrentContent {
  /** The reviews on the public list, logged fields only. */
  reviews: readonly LoggedReview[];
  /** The review files marked `withdrawn:`. */
  withdrawn: readonly Withdrawal[];
}

/** What the log says about one id: its latest entry. */
interface Latest {
  index: number;
  withdrawn: boolean;
  /** A withdrawal's reason and date (`withdrawalKey`). */
  key?: string;
  /** The logged review's JSON bytes, as `JSON.stringify(loggedReview(r))` wrote them. */
  review?: Uint8Array;
  /** The last published or amended entry of the id (its review's date names a deleted file). */
  bytes?: Uint8Array;
}

export interface LogPlan {
  /** Entries to append, in order. */
  added: Uint8Array[];
  /** The latest entry index of every review on the public list. */
  indexOf: Map<string, number>;
  /** Logged, not withdrawn, and without a file now. */
  deleted: { id: string; index: number; date?: string }[];
  /** Every withdrawal in the log after this build, oldest first, with its entry index. */
  withdrawals: (Withdrawal & { index: number })[];
  /** Reviews whose latest entry is a withdrawal: off the public list now. */
  withdrawnNow: number;
  /** How many different reviews were ever published. */
  everPublished: number;
  /** Size of the log after this build. */
  size: number;
}

function reviewDate(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  const e = decodeEntry(bytes);
  return "review" in e && typeof e.review.date === "string" ? e.review.date : undefined;
}

const withdrawalKey = (w: { reason: string; date: string }) => `withdrawn ${w.reason} ${w.date}`;

/** The start every entry of this log has (entries.ts writes them; ids are kebab-case, never escaped). */
const HEAD = /^\{"event":"(published|amended|withdrawn)","id":"([a-z0-9-]+)",/;

/** The bytes of a review entry after its id, before the review's JSON. */
const REVIEW_KEY = '"review":'.length;

/**
 * Reads the log so far (entry bytes, in order) into each id's latest entry. LOG_DIR's entries were
 * written by this code and hash to a signed checkpoint, so they are not parsed again: only an
 * entry's start is read, and a review is compared by the bytes of its JSON, which end the entry.
 * At 10,000 reviews, parsing every entry (with zod, or even decoding it as text) cost more than
 * all the hashing.
 */
function latestOf(prior: readonly Uint8Array[]): { latest: Map<string, Latest>; published: Set<string> } {
  const latest = new Map<string, Latest>();
  const published = new Set<string>();
  prior.forEach((bytes, index) => {
    const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 200)).toString("latin1");
    const head = HEAD.exec(start);
    if (!head) throw new Error(`log entry ${index} is not an entry this log writes`);
    const [all, event, id] = head as unknown as [string, string, string];
    if (event === "withdrawn") {
      const w = decodeEntry(bytes) as Withdrawal;
      latest.set(id, { index, key: withdrawalKey(w), withdrawn: true, bytes: latest.get(id)?.bytes });
    } else {
      published.add(id);
      const review = bytes.subarray(all.length + REVIEW_KEY, bytes.length - 1);
      latest.set(id, { index, withdrawn: false, review, bytes });
    }
  });
  return { latest, published };
}

/** True when `json` (a review's JSON) is not byte for byte the logged `review`. */
function changed(json: string, review: Uint8Array | undefined): boolean {
  if (!review || Buffer.byteLength(json) !== review.length) return true;
  return !Buffer.from(json).equals(review);
}

type Pending = { event: "published" | "amended"; id: string; json: string } | (Withdrawal & { event: "withdrawn" });

export function planLog(prior: readonly Uint8Array[], current: CurrentContent): LogPlan {
  const { latest, published } = latestOf(prior);
  const fresh: Pending[] = [];
  const amended: Pending[] = [];
  const withdrawn: Pending[] = [];
  const present = new Set<string>();
  const byPublished = [...current.reviews].sort((a, b) =>
    a.published_at !== b.published_at ? (a.published_at < b.published_at ? -1 : 1) : a.id < b.id ? -1 : 1,
  );
  for (const review of byPublished) {
    present.add(review.id);
    const json = JSON.stringify(loggedReview(review));
    const last = latest.get(review.id);
    if (!last || last.withdrawn) fresh.push({ event: "published", id: review.id, json });
    else if (changed(json, last.review)) amended.push({ event: "amended", id: review.id, json });
  }
  for (const w of [...current.withdrawn].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.id < b.id ? -1 : 1,
  )) {
    present.add(w.id);
    const last = latest.get(w.id);
    if (!last || last.key !== withdrawalKey(w))
      withdrawn.push({ event: "withdrawn", id: w.id, reason: w.reason, date: w.date });
  }
  amended.sort((a, b) => (a.id < b.id ? -1 : 1));
  const deleted = [...latest]
    .filter(([id, l]) => !l.withdrawn && !present.has(id))
    .map(([id, l]) => ({ id, index: l.index, date: reviewDate(l.bytes) }))
    .sort((a, b) => a.index - b.index);

  const added: Uint8Array[] = [];
  const indexOf = new Map<string, number>();
  for (const [id, l] of latest) if (!l.withdrawn) indexOf.set(id, l.index);
  const all = [...fresh, ...amended, ...withdrawn];
  all.forEach((e, i) => {
    added.push(e.event === "withdrawn" ? encodeEntry(e) : reviewEntry(e.event, e.id, e.json));
    if (e.event !== "withdrawn") {
      indexOf.set(e.id, prior.length + i);
      published.add(e.id);
    } else indexOf.delete(e.id);
  });
  for (const id of [...indexOf.keys()]) if (!present.has(id)) indexOf.delete(id);

  const lastWithdrawn = new Map([...latest].map(([id, l]) => [id, l.withdrawn]));
  for (const e of all) lastWithdrawn.set(e.id, e.event === "withdrawn");
  const withdrawals: LogPlan["withdrawals"] = [];
  [...prior, ...added].forEach((bytes, index) => {
    // A cheap test of the entry's start: only withdrawals are parsed.
    if (Buffer.from(bytes.subarray(0, 22)).toString("latin1") !== '{"event":"withdrawn","') return;
    const e = decodeEntry(bytes);
    if (e.event === "withdrawn") withdrawals.push({ id: e.id, reason: e.reason, date: e.date, index });
  });
  return {
    added,
    indexOf,
    deleted,
    withdrawals,
    withdrawnNow: [...lastWithdrawn.values()].filter(Boolean).length,
    everPublished: published.size,
    size: prior.length + added.length,
  };
}
