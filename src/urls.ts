/**
 * Public URLs of the site, derived from `BASE_URL`. Kept in one place so feeds, headers, the HTML
 * page, OpenAPI and the hub agree on every address.
 */
export interface SiteUrls {
  base: string;
  home: string;
  reviews: string;
  insights: string;
  jsonFeed: string;
  atomFeed: string;
  openapi: string;
  hub: string;
  mcp: string;
  search: string;
  since: string;
  /** The sitemap of the HTML pages (src/site/sitemap.ts), announced in `/robots.txt`. */
  sitemap: string;
  /** The review log's page; the log's files (tlog-tiles) are below it: `checkpoint`, `key`, `tile/`. */
  log: string;
  /** The API reference page, one section per operation of /openapi.json (`#<operationId>`). */
  apiDocs: string;
}

export function siteUrls(baseUrl: string): SiteUrls {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    base,
    home: `${base}/`,
    reviews: `${base}/reviews.json`,
    insights: `${base}/insights.json`,
    jsonFeed: `${base}/api/feed.json`,
    atomFeed: `${base}/feed.xml`,
    openapi: `${base}/openapi.json`,
    hub: `${base}/api/websub/hub`,
    mcp: `${base}/mcp`,
    search: `${base}/api/reviews/search`,
    since: `${base}/api/reviews/since`,
    sitemap: `${base}/sitemap.xml`,
    log: `${base}/log/`,
    apiDocs: `${base}/api/`,
  };
}

/** Paths (relative to the site root) of the three WebSub topics. */
export const TOPIC_PATHS = ["/feed.xml", "/api/feed.json", "/reviews.json"] as const;

/**
 * `url` as the WHATWG URL Standard serialises it (a space as `%20`, the root path as `/`): a valid
 * URI for the feeds and the JSON-LD, where the content schema accepts anything `new URL` parses.
 * The Atom renderer (`feed@6`) serialises links this way too, so every output names one address.
 */
export function uriOf(url: string): string {
  return new URL(url).href;
}

/** `url` as `uriOf` writes it, or as given when it does not parse: for comparing addresses read off a site. */
export const hrefOf = (url: string): string => URL.parse(url)?.href ?? url;
