import { escapeRegex } from "../content/regex.ts";
import { reviewTitle } from "../feeds/entries.ts";
import { formatDate, paragraphs, VERIFICATION_NAMES } from "../site/html-view.ts";
import type { ServedRecord } from "./site-check.ts";

/**
 * A review's own page checked against its record (`npm run log:verify -- --pages`): the record is
 * what `/reviews.json` serves and the log vouches for (site-check.ts), and the page is what a
 * visitor reads. Its text, the title, stars and author in its header, and its JSON-LD must say what
 * the record says, so a page edited after the build cannot show words the log never saw. Pure: the
 * caller fetches the page.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** `html` without its comments, which a browser shows nothing of: a check reads what a visitor can. */
export const withoutComments = (html: string) => html.replace(/<!--[\s\S]*?-->/g, "");

/** Runs of white space as one space, none at either end: text compared as a reader sees it. */
export const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** The text of an HTML fragment: tags dropped, character references decoded, spaces collapsed. */
export function htmlText(html: string): string {
  return collapse(
    html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, ref: string) => {
      if (ref[0] !== "#") return ENTITIES[ref.toLowerCase()] ?? all;
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }),
  );
}

/** Every JSON-LD `Review` node in `json`, at any depth (an `@graph`, an array, a business's `review`). */
function reviewNodes(json: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(json)) for (const v of json) reviewNodes(v, found);
  else if (json !== null && typeof json === "object") {
    const node = json as Record<string, unknown>;
    const type = node["@type"];
    if (type === "Review" || (Array.isArray(type) && type.includes("Review"))) found.push(node);
    for (const v of Object.values(node)) reviewNodes(v, found);
  }
  return found;
}

/**
 * The page's JSON-LD `Review` nodes: every one, however its script tag is written (attributes in
 * any order or quoting), since a search engine reads each; the record's is the one whose `@id` is `url`.
 */
function jsonLdReviews(html: string, url: string): { all: number; own: Record<string, unknown>[] } {
  const all: Record<string, unknown>[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (!/\btype\s*=\s*["']?\s*application\/ld\+json/i.test(m[1] as string)) continue;
    try {
      reviewNodes(JSON.parse(m[2] as string), all);
    } catch {
      // Not JSON: no reader takes a Review from it.
    }
  }
  return { all: all.length, own: all.filter((n) => n["@id"] === url) };
}

/**
 * How many elements of the page carry `id`, however the attribute is quoted (HTML allows `"`, `'`
 * or none): more than one, and the checks below read only the first.
 */
function idCount(html: string, id: string): number {
  const name = escapeRegex(id);
  return [...html.matchAll(new RegExp(`\\sid\\s*=\\s*(?:"${name}"|'${name}'|${name}(?=[\\s/>]))`, "gi"))].length;
}

/**
 * The content of the element whose start tag `start` finds in `html`, up to its own end tag:
 * elements of its name nest (an empty `<div></div>` in the body ends nothing), and comments, which
 * a browser skips, are dropped first (a `</div>` in one ends nothing either).
 */
function elementContent(html: string, start: RegExp, name: string): string | undefined {
  const text = withoutComments(html);
  const open = start.exec(text);
  if (!open) return undefined;
  const from = open.index + open[0].length;
  const tags = new RegExp(`<(/?)${name}\\b[^>]*>`, "gi");
  tags.lastIndex = from;
  let depth = 1;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return text.slice(from, m.index);
  }
  return undefined;
}

/** The paragraphs of the review's body on its page (the `<article>` anchored at its id). */
function bodyParagraphs(html: string, id: string): string[] | undefined {
  const article = html.indexOf(`id="review-${id}"`);
  if (article < 0) return undefined;
  const body = elementContent(html.slice(article), /<div class="review__body"[^>]*>/, "div");
  if (body === undefined) return undefined;
  return body
    .split(/<\/p>/)
    .map(htmlText)
    .filter((p) => p.length > 0);
}

/**
 * What the header of the review's article shows (undefined for a part it lacks): its title, its
 * stars as glyphs and as words, and its author, as the review card writes them.
 */
function shownHeader(html: string, id: string): Record<"title" | "stars" | "words" | "author", string | undefined> {
  const at = html.indexOf(`id="review-${id}"`);
  const header = at < 0 ? undefined : /<header class="review__header"[^>]*>([\s\S]*?)<\/header>/.exec(html.slice(at));
  const part = (re: RegExp) => {
    const m = header ? re.exec(header[1] as string) : null;
    return m ? htmlText(m[1] as string) : undefined;
  };
  return {
    title: part(/<h[1-6][^>]*\bclass="review__title[^"]*"[^>]*>([\s\S]*?)<\/h[1-6]>/),
    stars: part(/<span class="stars__on"[^>]*>([\s\S]*?)<\/span>/),
    words: part(/<span class="visually-hidden"[^>]*>([\s\S]*?)<\/span>/),
    author: part(/<span class="review__by"[^>]*>([\s\S]*?)<\/span>/),
  };
}

/** The review's `<article>` (up to its end), or undefined. */
function articleOf(html: string, id: string): string | undefined {
  const at = html.indexOf(`id="review-${id}"`);
  if (at < 0) return undefined;
  const end = html.indexOf("</article>", at);
  return html.slice(at, end < 0 ? undefined : end);
}

/** `<time datetime="d">text</time>` as a comparable string, `d text`. */
const timeShown = (m: RegExpExecArray | null, at: number) =>
  m ? `${m[at]} ${htmlText(m[at + 1] as string)}` : undefined;
const timeOf = (date: unknown) => (typeof date === "string" ? `${date} ${formatDate(date)}` : undefined);

/**
 * The logged fields a page shows besides its header's title, stars and author: the visit date,
 * the verification in its footer and the practice's reply (its date and text), each compared with
 * what the record says, so none of them can be rewritten on the page alone. Names what differs.
 */
function otherFieldsShown(html: string, record: ServedRecord): string[] {
  const article = articleOf(html, record.id) ?? "";
  const header = /<header class="review__header"[^>]*>([\s\S]*?)<\/header>/.exec(article)?.[1] ?? "";
  const date = timeShown(/<time datetime="([^"]*)"[^>]*>([\s\S]*?)<\/time>/.exec(header), 1);
  const footer = /<footer class="review__footer"[^>]*>([\s\S]*?)<\/footer>/.exec(article)?.[1] ?? "";
  const verified = /Verified by ([^<]*?) on <time datetime="([^"]*)"[^>]*>([\s\S]*?)<\/time>/.exec(footer);
  const v = record.verification as { method?: string; verified_on?: unknown } | undefined;
  const wantVerified = `${VERIFICATION_NAMES[v?.method as keyof typeof VERIFICATION_NAMES]} ${timeOf(v?.verified_on)}`;
  const reply = elementContent(article, /<section class="reply"[^>]*>/, "section");
  const response = record.response as { date?: unknown; text?: unknown } | null | undefined;
  const replyShown = reply
    ? [
        timeShown(/<time datetime="([^"]*)"[^>]*>([\s\S]*?)<\/time>/.exec(reply), 1),
        ...reply
          .replace(/^[\s\S]*?<\/h[2-6]>/, "")
          .split(/<\/p>/)
          .map(htmlText)
          .filter((p) => p.length > 0),
      ].join("\n")
    : undefined;
  const wantReply = response
    ? [timeOf(response.date), ...paragraphs(String(response.text)).map(collapse)].join("\n")
    : undefined;
  return [
    date !== timeOf(record.date) && "date",
    (!verified || `${htmlText(verified[1] as string)} ${timeShown(verified, 2)}` !== wantVerified) && "verification",
    replyShown !== wantReply && "reply",
  ].filter((f): f is string => f !== false);
}

/** What the page at `url` shows unlike `record`: one sentence per difference, naming the review. */
export function pageProblems(served: string, record: ServedRecord, url: string): string[] {
  const html = withoutComments(served);
  const id = record.id;
  const text = typeof record.text === "string" ? record.text : "";
  const problems: string[] = [];
  // The checks read the first article and the first JSON-LD Review: a page with a second one could
  // show a visitor another copy than the one checked (hidden or not).
  const articles = idCount(html, `review-${id}`);
  const lds = jsonLdReviews(html, url);
  if (articles > 1 || lds.all > 1)
    problems.push(
      `${id}: ${url} shows the review more than once (${articles} elements with its id, ${lds.all} JSON-LD Reviews); a page shows one copy`,
    );
  const shown = bodyParagraphs(html, id);
  // The check reads the first body: a second in the article could show another text.
  const bodies = (articleOf(html, id) ?? "").match(/<div class="review__body"/g)?.length ?? 0;
  if (!shown) problems.push(`${id}: ${url} does not show the review's text`);
  else if (bodies > 1) problems.push(`${id}: ${url} shows ${bodies} bodies of text in the review; a page shows one`);
  else if (shown.join("\n") !== paragraphs(text).map(collapse).join("\n"))
    problems.push(`${id}: ${url} shows other text than the record the log vouches for (rewritten after the build?)`);
  // The stars and the name a visitor reads, not only the JSON-LD a search engine reads.
  const head = shownHeader(html, id);
  // Compared as HTML shows them: runs of spaces in a title or a name collapse.
  const title = collapse(String(reviewTitle(record as never)));
  const rated = typeof record.rating === "number" ? record.rating : Number.NaN;
  const shownOtherwise = [
    head.title !== title && "title",
    (head.stars !== "★".repeat(Math.round(rated)) || head.words !== `${rated} out of 5 stars`) && "rating",
    head.author !== collapse(String(record.author)) && "author",
    ...otherFieldsShown(html, record),
  ].filter((f): f is string => f !== false);
  if (shownOtherwise.length > 0)
    problems.push(
      `${id}: ${url} shows another ${shownOtherwise.join(", ")} than the record the log vouches for (rewritten after the build?)`,
    );
  const ld = lds.own[0];
  if (!ld) {
    problems.push(`${id}: ${url} has no JSON-LD Review for the record`);
    return problems;
  }
  const rating = (ld.reviewRating as { ratingValue?: unknown } | undefined)?.ratingValue;
  const author = (ld.author as { name?: unknown } | undefined)?.name;
  const differs = [
    ld.reviewBody !== text.trim() && "reviewBody",
    rating !== record.rating && "reviewRating",
    author !== record.author && "author",
    ld.datePublished !== record.date && "datePublished",
  ].filter((f): f is string => f !== false);
  if (differs.length > 0)
    problems.push(`${id}: ${url}'s JSON-LD says another ${differs.join(", ")} than the record the log vouches for`);
  return problems;
}
