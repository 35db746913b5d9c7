import type { LogEntry } from "./entries.ts";
import { htmlText, withoutComments } from "./page-check.ts";
import { type LogView, logCountsOf, logPageCounts } from "./view.ts";

/**
 * The `/log/` page (`npm run log:verify`) against the log: its counts of entries by event and of
 * reviews published and withdrawn, and its list of withdrawals (date, reason and entry), as
 * src/pages/log/index.astro writes them from the log, so the page that states the policy cannot
 * leave out a withdrawal the log holds. Pure: the caller fetches the page.
 */

/** The content of the `<section id="…">` of the page, or undefined. */
function section(html: string, id: string): string | undefined {
  const re = new RegExp(
    `<section\\b[^>]*?\\sid\\s*=\\s*(["']?)${id}\\1(?=[\\s/>])[^>]*>([\\s\\S]*?)</section\\s*>`,
    "i",
  );
  return re.exec(html)?.[2];
}

/** The withdrawals a table lists, one `date reason index` per row. */
function rowsOf(table: string): string[] {
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr\s*>/gi)].flatMap((row) => {
    const cells = [...(row[1] as string).matchAll(/<td\b[^>]*>([\s\S]*?)<\/td\s*>/gi)].map((c) => c[1] as string);
    if (cells.length === 0) return [];
    const reason = /<code\b[^>]*>([\s\S]*?)<\/code\s*>/i.exec(cells[1] ?? "")?.[1] ?? "";
    return [`${htmlText(cells[0] ?? "")} ${htmlText(reason)} ${htmlText(cells[2] ?? "")}`];
  });
}

const rowOf = (w: LogView["withdrawals"][number]) => `${w.date} ${w.reason} ${w.index}`;

export function logPageProblems(where: string, served: string, entries: readonly LogEntry[]): string[] {
  const html = withoutComments(served);
  const log = logCountsOf(entries);
  const problems: string[] = [];
  const counts = section(html, "counts");
  const shown = (counts ?? "")
    .split(/<\/p\s*>/i)
    .slice(0, -1)
    .map((p) => htmlText(p.replace(/^[\s\S]*<p\b[^>]*>/i, "")));
  const want = logPageCounts(log);
  if (shown.join("\n") !== want.join("\n"))
    problems.push(
      `${where} says ${JSON.stringify(shown.join(" "))} in its counts, where the log says ${JSON.stringify(want.join(" "))} (rewritten after the build?)`,
    );
  const listed = rowsOf(section(html, "withdrawals") ?? "");
  const logged = log.withdrawals.map(rowOf);
  if (listed.join("\n") !== logged.join("\n")) {
    const missing = log.withdrawals
      .filter((w) => !listed.includes(rowOf(w)))
      .map((w) => `entry ${w.index}, ${w.date}, ${w.reason}`);
    problems.push(
      `${where} lists ${listed.length} withdrawals, where the log holds ${logged.length}${missing.length > 0 ? ` (not listed: ${missing.join("; ")})` : ""}: its list is not the log's (rewritten after the build?)`,
    );
  }
  return problems;
}
