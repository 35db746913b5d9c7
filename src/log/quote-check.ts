import { hrefOf } from "../urls.ts";
import { collapse } from "./page-check.ts";
import type { ServedRecord } from "./site-check.ts";

/**
 * `/insights.json` against the records `/reviews.json` serves, which site-check.ts proves are the
 * ones the log vouches for: every review it quotes or cites (`review_id`) is served, never a
 * withdrawn one, its `url` is that review's permalink, and a quoted `sentence` is words of that
 * review (its text or its title), so the home page cannot put words in a patient's mouth that the
 * log never saw. Pure: the caller fetches both files.
 */

const collapsed = (s: unknown) => (typeof s === "string" ? collapse(s) : "");

export function quoteProblems(
  where: string,
  insights: unknown,
  records: readonly ServedRecord[],
  permalink: (id: string) => string,
): string[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const problems = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) visit(v);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const node = value as Record<string, unknown>;
    if ("review_id" in node) {
      const id = String(node.review_id);
      const r = byId.get(id);
      if (!r) problems.add(`${where} cites ${id}, a review /reviews.json does not serve (withdrawn, or never logged?)`);
      else if ("url" in node && hrefOf(String(node.url)) !== hrefOf(permalink(id)))
        problems.add(`${id}: ${where} links it at ${JSON.stringify(node.url)}, not its permalink ${permalink(id)}`);
      if (r && "sentence" in node) {
        const quoted = collapsed(node.sentence);
        if (quoted === "" || !(collapsed(r.text).includes(quoted) || collapsed(r.title).includes(quoted)))
          problems.add(
            `${id}: ${where} quotes ${JSON.stringify(quoted.slice(0, 80))}, which its record the log vouches for does not say`,
          );
      }
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(insights);
  return [...problems];
}
