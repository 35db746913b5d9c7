import { hash } from "node:crypto";
import type { AggregateRating, Business } from "../content/records.ts";
import type { SiteUrls } from "../urls.ts";
import { type MonthPage, monthPages } from "./html-view.ts";
import { type ListPart, listParts } from "./list-parts.ts";
import { recordDigest } from "./record-digest.ts";

/**
 * The month archive pages' `getStaticPaths` entries, each with a `cacheKey` for Astro's incremental
 * build (astro.config.mjs): a later build copies a month's page from the last one instead of
 * rendering it when its key and its code are unchanged. So the key must change whenever a byte of
 * the page could, and the page must read nothing but these props: its reviews, the month list and
 * each month's count (every page's archive navigation), its neighbours, and the site-wide parts
 * (the business, the aggregate rating in its JSON-LD, the addresses, the footer sentence). Editing
 * one review's text changes that month's key only; a new month, a removed one, a changed rating or
 * business changes every key. (A type, not an interface: Astro's props type wants an index signature.)
 */
export type MonthPageProps = {
  page: MonthPage;
  /** Which part of the month's reviews this page shows (src/site/list-parts.ts). */
  part: ListPart;
  older?: MonthPage;
  newer?: MonthPage;
  months: MonthPage[];
  business: Business;
  aggregate: AggregateRating;
  urls: SiteUrls;
  verification: string;
};

export interface MonthPageSite {
  dataset: { business: Business; aggregate_rating: AggregateRating; reviews: MonthPage["reviews"] };
  urls: SiteUrls;
  verification: string;
}

/** Reviews one month page shows at most, each as a whole card; a busier month goes on at `page/2/`. */
export const MONTH_PART_SIZE = 50;

export interface MonthPageEntry {
  /** `month` is `11`, or `11/page/2` for a later part. */
  params: { year: string; month: string };
  props: MonthPageProps;
  cacheKey: string;
}

/** What a month page shows of another month: its link, its name and its number of reviews. */
const outline = (m: MonthPage | undefined) => m && [m.path, m.label, m.reviews.length];

/**
 * A hash of everything a month page can show: which part of the month it is and that part's
 * reviews (each by its record's digest), its neighbours' outline, and `shared`, the JSON of what
 * every month page shows alike (each month's outline in the archive navigation, the business, the
 * aggregate rating, the addresses, the footer sentence), serialised once per build rather than
 * once per month.
 */
function monthPageKey(props: MonthPageProps, shared: string): string {
  const { part } = props;
  const page = { ...props.page, reviews: props.page.reviews.slice(part.from, part.to).map(recordDigest) };
  const own = JSON.stringify({ page, part, older: outline(props.older), newer: outline(props.newer) });
  return hash("sha256", `${own}\n${shared}`, "hex");
}

/** One entry per month with reviews and part of its list, newest first. */
export function monthPageEntries(site: MonthPageSite): MonthPageEntry[] {
  const { dataset, urls, verification } = site;
  const months = monthPages(dataset.reviews);
  const shared = JSON.stringify({
    months: months.map(outline),
    business: dataset.business,
    aggregate: dataset.aggregate_rating,
    urls,
    verification,
  });
  // `months` is newest first, so the older neighbour follows and the newer one precedes.
  return months.flatMap((page, i) =>
    monthParts(page).map((part) => {
      const props: MonthPageProps = {
        page,
        part,
        older: months[i + 1],
        newer: months[i - 1],
        months,
        business: dataset.business,
        aggregate: dataset.aggregate_rating,
        urls,
        verification,
      };
      const month = part.path.slice(`/reviews/${page.year}/`.length, -1);
      return { params: { year: page.year, month }, props, cacheKey: monthPageKey(props, shared) };
    }),
  );
}

/** The pages of a month's reviews. */
export function monthParts(page: Pick<MonthPage, "path" | "reviews">): ListPart[] {
  return listParts(page.path, page.reviews.length, MONTH_PART_SIZE);
}
