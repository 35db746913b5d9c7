import { WITHDRAWAL_REASONS, type WithdrawalReason } from "../content/schema.ts";
import type { LogEntry } from "./entries.ts";
import { type LogPlan, latestEntries, tallyEntries } from "./plan.ts";

/**
 * What the pages show of the review log: the home page's counts, the `/log/` page and the page a
 * withdrawn review's own URL answers with. `/log/` lists withdrawals by entry, date and reason
 * only: never the withdrawn text, nor the review's id (an id often carries the author's name),
 * which only the review's own URL, already known to whoever asks for it, repeats.
 */
export interface LogView {
  origin: string;
  vkey: string;
  /** The signed checkpoint, as `/log/checkpoint` serves it. */
  checkpoint: string;
  size: number;
  /** Entries of each event: they add up to `size`. */
  counts: LogPlan["counts"];
  everPublished: number;
  /** Reviews published and withdrawn now: one withdrawn before it was ever published is in neither count. */
  withdrawnNow: number;
  /** Those reviews, per reason, in the policy's order; reasons with none are left out. */
  withdrawnByReason: { reason: WithdrawalReason; count: number }[];
  /** Every withdrawal entry, newest first. */
  withdrawals: { index: number; reason: WithdrawalReason; date: string }[];
  /** The reviews withdrawn now, by id, for the pages their URLs answer with (410); `leftOn` as in LogPlan. */
  gone: { id: string; reason: WithdrawalReason; date: string; index: number; leftOn?: string }[];
}

/**
 * The moderation policy in plain words, for the pages: `name` for a list, `after` to follow
 * "withdrawn" in a sentence, `policy` for what the reason covers (docs/editors.md says the same).
 */
export const REASONS: Record<WithdrawalReason, { name: string; after: string; policy: string }> = {
  "confidential-or-private": {
    name: "Confidential or private information",
    after: "for private information",
    policy: "it discloses someone's health, contact or other private details",
  },
  "defamatory-or-harassing": {
    name: "Defamatory or harassing",
    after: "as defamatory or harassing",
    policy: "it makes false statements of fact about a person, or harasses or threatens someone",
  },
  "obscene-or-discriminatory": {
    name: "Obscene or discriminatory",
    after: "as obscene or discriminatory",
    policy: "it is obscene, or demeans people for who they are",
  },
  unrelated: {
    name: "Unrelated to the practice",
    after: "as unrelated to the practice",
    policy: "it is not about a visit to or the services of this practice",
  },
  "false-or-fake": {
    name: "Known to be false or fake",
    after: "as false or fake",
    policy: "the practice knows it was not written by a patient, or describes a visit that did not happen",
  },
  "author-request": {
    name: "At the author's request",
    after: "at the author's request",
    policy: "the person who wrote it asked for it to be taken down",
  },
};

/** How many reviews are withdrawn now for each reason, in the policy's order; reasons with none left out. */
function byReason(withdrawnNow: readonly { reason: WithdrawalReason }[]): LogView["withdrawnByReason"] {
  const counts = new Map<WithdrawalReason, number>();
  for (const w of withdrawnNow) counts.set(w.reason, (counts.get(w.reason) ?? 0) + 1);
  return WITHDRAWAL_REASONS.flatMap((reason) => {
    const count = counts.get(reason) ?? 0;
    return count > 0 ? [{ reason, count }] : [];
  });
}

/** The withdrawals as the `/log/` page lists them: the newest entry first. */
const newestFirst = (withdrawals: LogPlan["withdrawals"]): LogView["withdrawals"] =>
  withdrawals.map((w) => ({ index: w.index, reason: w.reason, date: w.date })).sort((a, b) => b.index - a.index);

type SummaryCounts = Pick<LogView, "everPublished" | "withdrawnNow" | "withdrawnByReason">;
type LogCounts = SummaryCounts & Pick<LogView, "size" | "counts" | "withdrawals">;

/** The counts and withdrawals the home page and `/log/` show, from a log's entries alone (what a monitor has). */
export function logCountsOf(entries: readonly LogEntry[]): LogCounts {
  // Any entry but a withdrawal puts a review on the list, as tallyEntries counts publications.
  const listed = new Set(entries.flatMap((e) => (e.event === "withdrawn" ? [] : [e.id])));
  const withdrawn = [...latestEntries(entries).values()].flatMap(({ entry: e }) =>
    e.event === "withdrawn" && listed.has(e.id) ? [e] : [],
  );
  const { counts, withdrawals, everPublished } = tallyEntries(entries);
  return {
    size: entries.length,
    counts,
    everPublished,
    withdrawnNow: withdrawn.length,
    withdrawnByReason: byReason(withdrawn),
    withdrawals: newestFirst(withdrawals),
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The home page's sentence of counts (src/components/log-summary.astro), what the log says. */
export function logSummary(log: SummaryCounts): string {
  const reasons = log.withdrawnByReason.map((r) => `${r.count} ${REASONS[r.reason].after}`).join("; ");
  return `${plural(log.everPublished, "review has", "reviews have")} been published here; ${
    log.withdrawnNow === 0 ? "none has been withdrawn" : `${log.withdrawnNow} withdrawn (${reasons})`
  }.`;
}

/** The two sentences of counts on `/log/` (src/pages/log/index.astro): entries by event, then reviews. */
export function logPageCounts(log: Pick<LogView, "size" | "counts" | "everPublished" | "withdrawnNow">): string[] {
  const { size, counts: c } = log;
  return [
    `The log has ${size} ${size === 1 ? "entry" : "entries"}: ${c.published} published, ${c.amended} amended, ${c.withdrawn} withdrawn and ${c.restored} restored.`,
    `${log.everPublished} ${log.everPublished === 1 ? "review has" : "different reviews have"} been published here; ${log.withdrawnNow} ${log.withdrawnNow === 1 ? "is" : "are"} withdrawn now.`,
  ];
}

/** The rest of the home page's log summary: a sentence, then its link to the log's page. */
export const LOG_SUMMARY_TAIL = "Reviews are never deleted or chosen by rating:";
export const LOG_SUMMARY_LINK = "every publication, correction and withdrawal is in a public, verifiable log";

export function logView(log: { origin: string; vkey: string; checkpoint: string; plan: LogPlan }): LogView {
  const { plan } = log;
  // A review that left the list was on it: one withdrawn before it was ever published has no leftOn.
  const leftList = plan.withdrawnNow.filter((w) => w.leftOn !== undefined);
  return {
    origin: log.origin,
    vkey: log.vkey,
    checkpoint: log.checkpoint,
    size: plan.size,
    counts: plan.counts,
    everPublished: plan.everPublished,
    withdrawnNow: leftList.length,
    withdrawnByReason: byReason(leftList),
    withdrawals: newestFirst(plan.withdrawals),
    gone: [...plan.withdrawnNow].sort((a, b) => (a.id < b.id ? -1 : 1)),
  };
}
