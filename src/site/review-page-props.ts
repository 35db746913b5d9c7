import { hash } from "node:crypto";
import { archivePath } from "../content/dataset.ts";
import type { AspectRef, Business, ReviewRecord } from "../content/records.ts";
import { countedSentence, type ReviewCounted } from "../insights/counted.ts";
import type { CountedSentence } from "../insights/quotes.ts";
import type { SiteUrls } from "../urls.ts";
import type { EvidencePage } from "./evidence.ts";
import { evidenceParts } from "./evidence-paths.ts";
import { monthLabel } from "./html-view.ts";
import type { ListPart } from "./list-parts.ts";
import { recordDigest } from "./record-digest.ts";
import type { SiteData } from "./site-data.ts";

/**
 * The `getStaticPaths` entries of the review pages and the evidence pages, each with a `cacheKey`
 * for Astro's incremental build (astro.config.mjs; as for the month pages, src/site/month-page-props.ts):
 * a rebuild copies a page whose key and code are unchanged. So a key hashes everything its page
 * shows and the page reads nothing but its props. Neither page shows the aggregate rating or any
 * other review, so a new review renders its own page and the evidence pages that list it, and
 * copies the other 10,000.
 */

/** What every review and evidence page shows alike: the header, the footer and the aspect names. */
export type SharedPageProps = {
  business: Business;
  aspects: AspectRef[];
  urls: SiteUrls;
  verification: string;
};

export type ReviewPageProps = SharedPageProps & {
  review: ReviewRecord;
  /** The month archive that also lists it. */
  month: { path: string; label: string };
};

/** A review as an evidence list shows it: a link, the stars, the byline and, on aspect lists, its reading. */
export type EvidenceItem = Pick<ReviewRecord, "id" | "title" | "rating" | "author" | "date"> & {
  reading?: ReviewRecord["aspects"][number];
  /** On aspect lists, the review's sentence that reading rests on. */
  said?: CountedSentence;
};

/**
 * The page's reviews are passed as the records themselves (shared with every other page, so no
 * copy per page) and made into items only when the page is rendered (`evidenceItems`): a rebuild
 * copies most evidence pages and never needs theirs.
 */
export type EvidencePageProps = SharedPageProps & {
  page: EvidencePage;
  /** Which part of the figure's list this page shows (src/site/list-parts.ts). */
  part: ListPart;
  /**
   * On aspect pages, the build's counted sentences (per review id and aspect, the sentence a
   * reading rests on), shared by every page: the page looks up its own reviews when it is rendered.
   */
  counted?: SiteData["counted"];
};

interface Entry<P> {
  params: Record<string, string>;
  props: P;
  cacheKey: string;
}

const key = (own: unknown, shared: string) => hash("sha256", `${JSON.stringify(own)}\n${shared}`, "hex");

/**
 * The shared props and their digest, computed once per list: each of 10,000 keys then hashes its
 * own part and 64 characters instead of the business, aspects and addresses again.
 */
function shared(site: SiteData): { props: SharedPageProps; json: string } {
  const props: SharedPageProps = {
    business: site.dataset.business,
    aspects: site.dataset.aspects,
    urls: site.urls,
    verification: site.verification,
  };
  return { props, json: hash("sha256", JSON.stringify(props), "hex") };
}

/** One entry per review, at `/reviews/<id>/` (src/content/dataset.ts `reviewPath`). */
export function reviewPageEntries(site: SiteData): Entry<ReviewPageProps>[] {
  const common = shared(site);
  return site.dataset.reviews.map((review) => {
    const [year, month] = review.date.split("-") as [string, string];
    const props: ReviewPageProps = {
      ...common.props,
      review,
      month: { path: archivePath(review.date), label: monthLabel(year, month) },
    };
    return { params: { id: review.id }, props, cacheKey: key([recordDigest(review), props.month], common.json) };
  });
}

/** The items an evidence page lists (its `part` of the figure's list): what it shows of each review, and its reading of the page's aspect. */
export function evidenceItems(
  page: Pick<EvidencePage, "reviews" | "aspect" | "entity">,
  part: Pick<ListPart, "from" | "to">,
  counted?: SiteData["counted"],
): EvidenceItem[] {
  const { aspect } = page;
  return page.reviews.slice(part.from, part.to).map((r): EvidenceItem => {
    const item: EvidenceItem = { id: r.id, title: r.title, rating: r.rating, author: r.author, date: r.date };
    if (aspect === undefined) return item;
    const reading = readingOf(r, aspect);
    if (reading) item.reading = reading;
    const sentence = countedSentence(counted?.get(r.id), aspect, page.entity);
    if (sentence) item.said = sentence;
    return item;
  });
}

const readingOf = (r: ReviewRecord, aspect: string) => r.aspects.find((a) => a.id === aspect);

/**
 * Per listed review, what every evidence list that shows it shares, made once per build: its
 * byline's JSON, its counted sentences, and the digests (`listedDigest`) made so far, three slots
 * each: the aspect ("" on lists of no aspect), the sentence's place among its counted ones
 * (`ReviewCounted.shownAt`, -1 for none) and the digest, found again for any place showing the same sentence. A review is on about 15 lists, and an
 * aspect's lists and its entities' mostly show the same sentence. Kept only while the keys are made.
 */
type Listed = { byline: string; counted: ReviewCounted | undefined; digests: (string | number)[] };

/**
 * SHA-256 (hex) of `\n`, the JSON of the review's id, title, rating, author and date, and on an
 * aspect's list the JSON of [its reading, the sentence counted] (null for none): what
 * `evidenceItems` takes from it.
 */
function listedDigest(
  memo: Map<ReviewRecord, Listed>,
  r: ReviewRecord,
  { aspect, entity }: Pick<EvidencePage, "aspect" | "entity">,
  counted: SiteData["counted"],
): string {
  let listed = memo.get(r);
  if (listed === undefined) {
    listed = {
      byline: `\n${JSON.stringify([r.id, r.title, r.rating, r.author, r.date])}`,
      counted: counted.get(r.id),
      digests: [],
    };
    memo.set(r, listed);
  }
  const of = aspect ?? "";
  const at = aspect === undefined ? -1 : (listed.counted?.shownAt(aspect, entity) ?? -1);
  const digests = listed.digests;
  for (let i = 0; i < digests.length; i += 3)
    if (digests[i] === of && (digests[i + 1] === at || listed.counted?.sameShown(digests[i + 1] as number, at)))
      return digests[i + 2] as string;
  let text = listed.byline;
  if (aspect !== undefined) text += JSON.stringify([readingOf(r, aspect) ?? null, listed.counted?.shown(at) ?? null]);
  const digest = hash("sha256", text, "hex");
  digests.push(of, at, digest);
  return digest;
}

/**
 * The cache key of an evidence page: SHA-256 of its heading and definition and which part of the
 * list it is (JSON), then each listed review's `listedDigest`, then the shared props' digest. A
 * review's text is hashed once per build, not once per list (at 10,000 reviews, 150,000 times).
 */
function evidenceKey(
  { reviews, ...meta }: EvidencePage,
  part: ListPart,
  counted: SiteData["counted"],
  shared: string,
  memo: Map<ReviewRecord, Listed>,
): string {
  let listed = "";
  for (let i = part.from; i < part.to; i++) listed += listedDigest(memo, reviews[i] as ReviewRecord, meta, counted);
  return hash("sha256", `${JSON.stringify([meta, part])}${listed}\n${shared}`, "hex");
}

/** One entry per evidence page (src/site/evidence.ts) and part of its list, at its path under `/insights/`. */
export function evidencePageEntries(site: SiteData): Entry<EvidencePageProps>[] {
  const common = shared(site);
  const memo = new Map<ReviewRecord, Listed>();
  return site.evidence.flatMap((page) =>
    evidenceParts(page.path, page.reviews.length).map((part) => {
      const props: EvidencePageProps = { ...common.props, page, part };
      if (page.aspect !== undefined) props.counted = site.counted;
      return {
        params: { path: part.path.slice("/insights/".length, -1) },
        props,
        cacheKey: evidenceKey(page, part, site.counted, common.json, memo),
      };
    }),
  );
}
