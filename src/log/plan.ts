import { z } from "zod";
import type { WithdrawalReason } from "../content/schema.ts";
import { commitment, type NonceSource } from "./commitment.ts";
import { decodeEntry, encodeEntry, type LogEntry, type LogEvent, type LoggedReview } from "./entries.ts";

/**
 * What a build appends to the log: the difference between the log so far and the content now.
 * A review the log has never seen is `published`; one whose record no longer opens its latest
 * entry's commitment is `amended`; one whose file says `withdrawn:` is `withdrawn` (once, or again
 * if the reason or date changes); one withdrawn and then back on the list is `restored`, or
 * `published` if it was never on the list before (withdrawn before its first build). A logged
 * review whose file is gone is not something a log can express: it is reported, and the build
 * refuses it (docs/log.md).
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

/** Where a record stands in the log: its latest entry's index and nonce (base64). */
export interface LogPosition {
  index: number;
  nonce: string;
}

export interface LogPlan {
  /** Entries to append, in order. */
  added: Uint8Array[];
  /** The latest entry of every review on the public list. */
  positions: Map<string, LogPosition>;
  /** Logged, not withdrawn, and without a file now. */
  deleted: { id: string; index: number }[];
  /** Every withdrawal in the log after this build, oldest first, with its entry index. */
  withdrawals: (Withdrawal & { index: number })[];
  /**
   * Reviews whose latest entry is a withdrawal (off the public list now), with that entry, and the
   * day the review left the list (its first withdrawal since it was last on it; none if it never was).
   */
  withdrawnNow: (Withdrawal & { index: number; leftOn?: string })[];
  /**
   * Reviews on the public list whose latest entry is an amendment or a restoration: the day (UTC)
   * it was logged, when the review last changed after its publication (the feeds' `updated`).
   */
  changedOn: Map<string, string>;
  /** How many different reviews were ever published. */
  everPublished: number;
  /** Entries of each event in the log after this build: they add up to `size`. */
  counts: Record<LogEvent, number>;
  /** Size of the log after this build. */
  size: number;
  /** The day the log's last entry was logged, after this build. */
  lastLogged?: string;
}

export class LogDateError extends Error {
  override name = "LogDateError";
}

/** Each id's latest entry and index, and what the log holds: for the build and for `npm run check`. */
export function latestEntries(prior: readonly LogEntry[]): Map<string, { index: number; entry: LogEntry }> {
  const latest = new Map<string, { index: number; entry: LogEntry }>();
  prior.forEach((entry, index) => {
    latest.set(entry.id, { index, entry });
  });
  return latest;
}

/**
 * The day each review last changed after its publication (its latest entry an amendment or a
 * restoration, `LogPlan.changedOn`): what the feeds date a changed entry by, whoever wrote them.
 */
export function changedOnDays(latest: ReadonlyMap<string, { entry: LogEntry }>): Map<string, string> {
  const changedOn = new Map<string, string>();
  for (const [id, { entry }] of latest)
    if (entry.event === "amended" || entry.event === "restored") changedOn.set(id, entry.logged);
  return changedOn;
}

/**
 * A log's entries counted: by event, every withdrawal in log order, and how many different reviews
 * were ever published (any entry but a withdrawal puts a review on the list, so a log that logged a
 * first appearance as `restored`, before it was logged as `published`, counts it too).
 */
export function tallyEntries(entries: readonly LogEntry[]): Pick<LogPlan, "counts" | "withdrawals" | "everPublished"> {
  const counts: Record<LogEvent, number> = { published: 0, amended: 0, withdrawn: 0, restored: 0 };
  const withdrawals: LogPlan["withdrawals"] = [];
  const listed = new Set<string>();
  entries.forEach((e, index) => {
    counts[e.event]++;
    if (e.event === "withdrawn") withdrawals.push({ id: e.id, reason: e.reason, date: e.date, index });
    else listed.add(e.id);
  });
  return { counts, withdrawals, everPublished: listed.size };
}

/** Logged reviews whose latest entry is not a withdrawal and that are not in `present`. */
export function deletedReviews(prior: readonly LogEntry[], present: ReadonlySet<string>): LogPlan["deleted"] {
  return [...latestEntries(prior)]
    .filter(([id, l]) => l.entry.event !== "withdrawn" && !present.has(id))
    .map(([id, l]) => ({ id, index: l.index }))
    .sort((a, b) => a.index - b.index);
}

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

type Pending =
  | { event: "published" | "amended" | "restored"; review: LoggedReview }
  | (Withdrawal & { event: "withdrawn" });

/**
 * The entries this build appends to `prior` (already decoded) for `current`, logged on `today`
 * (YYYY-MM-DD). New entries come in this order: reviews newly on the list by `published_at`,
 * amendments by id, withdrawals by date. Throws `LogDateError` when there is something to log and
 * `today` is before the day of the log's last entry: a log's days never go back.
 */
export function planLog(
  prior: readonly LogEntry[],
  current: CurrentContent,
  opts: { nonce: NonceSource; today: string },
): LogPlan {
  const latest = latestEntries(prior);
  // A review's nonce is needed twice (its last entry's commitment, its record's log_nonce).
  const nonces = new Map<number, Uint8Array>();
  const nonce = (index: number) => {
    let n = nonces.get(index);
    if (!n) {
      n = opts.nonce(index);
      nonces.set(index, n);
    }
    return n;
  };
  const b64 = (index: number) => Buffer.from(nonce(index)).toString("base64");
  const onList: Pending[] = [];
  const amended: Pending[] = [];
  const withdrawn: Pending[] = [];
  const present = new Set<string>();
  // Reviews that were on the list before: back on it, they are restored; otherwise, published.
  const listed = new Set(prior.filter((e) => e.event !== "withdrawn").map((e) => e.id));
  for (const review of [...current.reviews].sort(byKey((r) => `${r.published_at} ${r.id}`))) {
    present.add(review.id);
    const last = latest.get(review.id);
    if (!last) onList.push({ event: "published", review });
    else if (last.entry.event === "withdrawn")
      onList.push({ event: listed.has(review.id) ? "restored" : "published", review });
    else if (last.entry.commitment !== commitment(nonce(last.index), review))
      amended.push({ event: "amended", review });
  }
  for (const w of [...current.withdrawn].sort(byKey((x) => `${x.date} ${x.id}`))) {
    present.add(w.id);
    const last = latest.get(w.id)?.entry;
    if (last?.event !== "withdrawn" || last.reason !== w.reason || last.date !== w.date)
      withdrawn.push({ event: "withdrawn", ...w });
  }
  amended.sort(byKey((p) => ("review" in p ? p.review.id : p.id)));
  const pending = [...onList, ...amended, ...withdrawn];
  const lastLogged = prior.at(-1)?.logged;
  if (pending.length > 0 && lastLogged !== undefined && opts.today < lastLogged) {
    throw new LogDateError(
      `the review log's last entry was logged on ${lastLogged}, and this build would log on ${opts.today}, an earlier day: a log's days never go back; check the clock of the machine that builds`,
    );
  }
  const entries: LogEntry[] = pending.map((p, i) =>
    p.event === "withdrawn"
      ? { event: "withdrawn", id: p.id, reason: p.reason, date: p.date, logged: opts.today }
      : {
          event: p.event,
          id: p.review.id,
          logged: opts.today,
          commitment: commitment(opts.nonce(prior.length + i), p.review),
        },
  );
  const all = [...prior, ...entries];
  const after = latestEntries(all);
  const positions = new Map<string, LogPosition>();
  for (const r of current.reviews) {
    const l = after.get(r.id) as { index: number; entry: LogEntry };
    positions.set(r.id, { index: l.index, nonce: b64(l.index) });
  }
  const changedOn = changedOnDays(new Map(current.reviews.map((r) => [r.id, after.get(r.id) as { entry: LogEntry }])));
  // null while on the list; the day it left once withdrawn (a changed reason does not move it).
  const left = new Map<string, string | null>();
  for (const e of all) {
    if (e.event !== "withdrawn") left.set(e.id, null);
    else if (left.get(e.id) === null) left.set(e.id, e.logged);
  }
  const withdrawnNow = [...after.values()].flatMap(({ entry: e, index }) => {
    if (e.event !== "withdrawn") return [];
    const leftOn = left.get(e.id) ?? undefined;
    return [{ id: e.id, reason: e.reason, date: e.date, index, ...(leftOn ? { leftOn } : {}) }];
  });
  return {
    added: entries.map(encodeEntry),
    positions,
    deleted: deletedReviews(prior, present),
    ...tallyEntries(all),
    withdrawnNow,
    changedOn,
    size: all.length,
    lastLogged: all.at(-1)?.logged,
  };
}

/** Decodes every entry of a log (LOG_DIR's or a fetched one); throws naming the first bad one. */
export function decodeEntries(raw: readonly Uint8Array[]): LogEntry[] {
  return raw.map((bytes, i) => {
    try {
      return decodeEntry(bytes);
    } catch (err) {
      const why =
        err instanceof z.ZodError
          ? err.issues.map((issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`).join("; ")
          : (err as Error).message;
      throw new Error(`log entry ${i} is not an entry of this log (${why.slice(0, 200)})`);
    }
  });
}
