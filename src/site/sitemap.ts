/**
 * `/sitemap.xml` (https://www.sitemaps.org/protocol.html) of the HTML pages: the home page, the
 * month archives, every review's page and every evidence page. A file may list at most 50,000
 * addresses, so a larger site gets a sitemap index at `/sitemap.xml` and its lists in
 * `/sitemap-1.xml`, `/sitemap-2.xml`…; the same pages always give the same bytes.
 */

/** The protocol's limit of addresses per file (and per index). */
export const SITEMAP_MAX_URLS = 50_000;
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string);

export interface SitemapEntry {
  /** Site-relative path, e.g. `/reviews/2024-03-14-maria-g/`. */
  path: string;
  /** When the page last changed, `YYYY-MM-DD`, when known from the content. */
  lastmod?: string;
}

function urlset(base: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (e) => `<url><loc>${xml(`${base}${e.path}`)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${urls.join("\n")}\n</urlset>\n`;
}

/** The sitemap files of a site at `base` (no trailing slash): file name (under the site root) and bytes. */
export function sitemapFiles(base: string, entries: readonly SitemapEntry[]): { name: string; body: string }[] {
  if (entries.length <= SITEMAP_MAX_URLS) return [{ name: "sitemap.xml", body: urlset(base, entries) }];
  const parts: { name: string; body: string }[] = [];
  for (let i = 0; i < entries.length; i += SITEMAP_MAX_URLS) {
    parts.push({ name: `sitemap-${parts.length + 1}.xml`, body: urlset(base, entries.slice(i, i + SITEMAP_MAX_URLS)) });
  }
  const index = parts.map((p) => `<sitemap><loc>${xml(`${base}/${p.name}`)}</loc></sitemap>`);
  return [
    {
      name: "sitemap.xml",
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${index.join("\n")}\n</sitemapindex>\n`,
    },
    ...parts,
  ];
}

/**
 * `/robots.txt`: the site may be crawled, and this is where the sitemap is. Crawlers read it only
 * at the root of the host (RFC 9309 §2.3), so for a site below a folder (`base` with a path) its
 * rule names that folder and a comment says to add the lines to the host's own `/robots.txt`.
 */
export function robotsTxt(base: string, sitemapUrl: string): string {
  const url = new URL(base);
  const folder = url.pathname.replace(/\/*$/, "/");
  const rules = `User-agent: *\nAllow: ${folder}\nSitemap: ${sitemapUrl}\n`;
  if (folder === "/") return rules;
  const root = new URL("/robots.txt", url).href;
  return `# Crawlers read robots.txt only at ${root} (RFC 9309).\n# This site lives below ${folder}: add the lines below to that file.\n${rules}`;
}
