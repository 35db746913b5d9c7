import type { LogEntry } from "./entries.ts";
import { htmlText, withoutComments } from "./page-check.ts";
import { LOG_SUMMARY_LINK, LOG_SUMMARY_TAIL, logCountsOf, logSummary } from "./view.ts";

/**
 * The home page's log summary (`npm run log:verify`) against the log: how many reviews were ever
 * published, how many are withdrawn now and why, as src/components/log-summary.astro writes them
 * from the log, so the page a visitor lands on cannot hide withdrawals the log holds. Pure: the
 * caller fetches the page.
 */

const SUMMARY = /<p\b[^>]*\bclass\s*=\s*["']?log-summary\b[^>]*>([\s\S]*?)<\/p\s*>/gi;

export function homeProblems(where: string, html: string, entries: readonly LogEntry[]): string[] {
  const shown = [...withoutComments(html).matchAll(SUMMARY)].map((m) => htmlText(m[1] as string));
  const sentence = logSummary(logCountsOf(entries));
  if (shown.length === 0) return [`${where} does not show the log's counts (${JSON.stringify(sentence)})`];
  if (shown.length > 1) return [`${where} shows the log's counts ${shown.length} times; the page shows them once`];
  if (shown[0] === `${sentence} ${LOG_SUMMARY_TAIL} ${LOG_SUMMARY_LINK}.`) return [];
  return [
    `${where} says ${JSON.stringify(shown[0])}, where the log says ${JSON.stringify(sentence)} (rewritten after the build?)`,
  ];
}
