import { isDeepStrictEqual } from "node:util";
import type { Business, ReviewRecord } from "../content/records.ts";
import { renderAtomFeed } from "../feeds/atom.ts";
import { hrefOf, siteUrls } from "../urls.ts";
import type { LogEntry } from "./entries.ts";
import { collapse, htmlText } from "./page-check.ts";
import { changedOnDays, latestEntries } from "./plan.ts";
import type { ServedRecord } from "./site-check.ts";

/**
 * The Atom feed (`/feed.xml`) against the records `/reviews.json` serves, as feed-check.ts checks
 * the JSON Feed: each entry links a served review (never a withdrawn one), and every element in it
 * is the one src/feeds/atom.ts writes for that record (its title, content, author, dates by the
 * log's days, id and categories), with none beside them, so a feed reader is not shown words the
 * log never saw. Pure: the caller fetches both files.
 */

/** An entry, its name with or without a namespace prefix (`<a:entry xmlns:a="…Atom">` is one to a reader too). */
const ENTRY = /<((?:[A-Za-z_][\w.-]*:)?entry)\b[^>]*>([\s\S]*?)<\/\1\s*>/g;
/** A CDATA section, kept whole, or a comment, which a reader skips: its `</entry>` ends nothing. */
const CDATA_OR_COMMENT = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g;
/** An element and its content, `<name …/>` or `<name …>…</name>` (an entry's children do not nest themselves). */
const CHILD = /<([A-Za-z][\w:.-]*)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1\s*>)/g;

/** An entry's child elements by name, each written with its spaces collapsed. */
function children(entry: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of entry.matchAll(CHILD)) {
    const name = m[1] as string;
    out.set(name, [...(out.get(name) ?? []), collapse(m[0])]);
  }
  return out;
}

/** The `href` of an entry's first link, its character references decoded. */
function linkOf(entry: string): string | undefined {
  const href = /<(?:[A-Za-z_][\w.-]*:)?link\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(entry);
  return href ? htmlText(href[1] ?? href[2] ?? "") : undefined;
}

export function atomProblems(
  where: string,
  xml: string,
  records: readonly ServedRecord[],
  business: unknown,
  site: string,
  permalink: (id: string) => string,
  entries: readonly LogEntry[],
): string[] {
  if (!/<feed\b/.test(xml)) return [`${where} is not an Atom feed: it has no feed element`];
  const changes = { changedOn: changedOnDays(latestEntries(entries)), withdrawn: [] };
  const byUrl = new Map(records.map((r) => [hrefOf(permalink(r.id)), r]));
  const problems: string[] = [];
  const read = xml.replace(CDATA_OR_COMMENT, (m) => (m.startsWith("<!--") ? "" : m));
  for (const [, , served] of read.matchAll(ENTRY)) {
    const href = linkOf(served as string);
    const r = href === undefined ? undefined : byUrl.get(hrefOf(href));
    if (!r) {
      problems.push(
        `${where} carries an entry for ${JSON.stringify(href)}, a review /reviews.json does not serve (withdrawn, or never logged?)`,
      );
      continue;
    }
    let want: Map<string, string[]>;
    try {
      // The entry the build writes for this record alone, at its permalink (its url is checked apart).
      const record = { ...r, url: permalink(r.id) } as unknown as ReviewRecord;
      const one = renderAtomFeed(business as Business, [record], siteUrls(site), changes);
      want = children([...one.matchAll(ENTRY)][0]?.[2] ?? "");
    } catch (err) {
      problems.push(`${r.id}: ${where}'s entry cannot be checked: ${(err as Error).message}`);
      continue;
    }
    const got = children(served as string);
    const differs = [...new Set([...want.keys(), ...got.keys()])].filter(
      (name) => !isDeepStrictEqual(got.get(name), want.get(name)),
    );
    if (differs.length > 0)
      problems.push(
        `${r.id}: ${where} gives another ${differs.join(", ")} than the record the log vouches for (rewritten after the build?)`,
      );
  }
  return problems;
}
