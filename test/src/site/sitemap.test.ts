import { describe, expect, it } from "vitest";
import { SITEMAP_MAX_URLS, sitemapFiles } from "../../../src/site/sitemap.ts";

describe("sitemapFiles", () => {
  it("writes one urlset with escaped addresses and lastmod where known", () => {
    const [file, ...rest] = sitemapFiles("https://example.org/a&b", [
      { path: "/" },
      { path: "/reviews/x/", lastmod: "2026-11-20" },
    ]);
    expect(rest).toEqual([]);
    expect(file?.name).toBe("sitemap.xml");
    expect(file?.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        "<url><loc>https://example.org/a&amp;b/</loc></url>\n" +
        "<url><loc>https://example.org/a&amp;b/reviews/x/</loc><lastmod>2026-11-20</lastmod></url>\n</urlset>\n",
    );
  });

  it("splits beyond 50,000 addresses into numbered files under a sitemap index", () => {
    const entries = Array.from({ length: SITEMAP_MAX_URLS + 1 }, (_, i) => ({ path: `/reviews/r${i}/` }));
    const files = sitemapFiles("https://example.org", entries);
    expect(files.map((f) => f.name)).toEqual(["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"]);
    expect(files[0]?.body).toContain("<sitemapindex");
    expect(files[0]?.body).toContain("<sitemap><loc>https://example.org/sitemap-2.xml</loc></sitemap>");
    expect(files[1]?.body.match(/<url>/g)).toHaveLength(SITEMAP_MAX_URLS);
    expect(files[2]?.body.match(/<url>/g)).toHaveLength(1);
    expect(files[2]?.body).toContain(`/reviews/r${SITEMAP_MAX_URLS}/`);
  });
});
