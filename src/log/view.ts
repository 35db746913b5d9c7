import { WITHDRAWAL_REASONS, type WithdrawalReason } from "../content/schema.ts";
import type { LogPlan } from "./plan.ts";

/**
 * What the pages show of the review log: the home page's counts and the `/log/` page. Withdrawals
 * are listed by entry, date and reason only: never the withdrawn text, nor the review's id (an id
 * often carries the author's name).
 */
export interface LogView {
  origin: string;
  vkey: string;
  /** The signed checkpoint, as `/log/checkpoint` serves it. */
  checkpoint: string;
  size: number;
  everPublished: number;
  withdrawnNow: number;
  /** Reviews withdrawn now, per reason, in the policy's order; reasons with none are left out. */
  withdrawnByReason: { reason: WithdrawalReason; count: number }[];
  /** Every withdrawal entry, newest first. */
  withdrawals: { index: number; reason: WithdrawalReason; date: string }[];
}

/** Plain-words labels of the withdrawal reasons, for the pages (docs/editors.md has the policy). */
export const REASON_LABELS: Record<WithdrawalReason, string> = {
  "confidential-or-private": "confidential or private information",
  "defamatory-or-harassing": "defamation or harassment",
  "obscene-or-discriminatory": "obscene or discriminatory content",
  unrelated: "not about this practice",
  "false-or-fake": "known to be false or fake",
  "author-request": "at the author's request",
};

export function logView(log: { origin: string; vkey: string; checkpoint: string; plan: LogPlan }): LogView {
  const { plan } = log;
  // The reason a review is withdrawn for now is that of its latest withdrawal entry.
  const latest = new Map<string, WithdrawalReason>();
  for (const w of plan.withdrawals) latest.set(w.id, w.reason);
  const republished = new Set(plan.indexOf.keys());
  const counts = new Map<WithdrawalReason, number>();
  for (const [id, reason] of latest) if (!republished.has(id)) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return {
    origin: log.origin,
    vkey: log.vkey,
    checkpoint: log.checkpoint,
    size: plan.size,
    everPublished: plan.everPublished,
    withdrawnNow: plan.withdrawnNow,
    withdrawnByReason: WITHDRAWAL_REASONS.flatMap((reason) => {
      const count = counts.get(reason) ?? 0;
      return count > 0 ? [{ reason, count }] : [];
    }),
    withdrawals: plan.withdrawals
      .map((w) => ({ index: w.index, reason: w.reason, date: w.date }))
      .sort((a, b) => b.index - a.index),
  };
}
