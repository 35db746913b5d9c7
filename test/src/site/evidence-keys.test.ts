import { hash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { ReviewCounted } from "../../../src/insights/counted.ts";
import { evidencePages } from "../../../src/site/evidence.ts";
import { evidenceItems, evidencePageEntries } from "../../../src/site/review-page-props.ts";
import type { SiteData } from "../../../src/site/site-data.ts";
import { siteUrls } from "../../../src/urls.ts";
import { projectAnalysis } from "../../helpers/project-insights.ts";

// Counts the keys' hashes; every call still hashes as node:crypto does.
vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof import("node:crypto")>();
  return { ...crypto, hash: vi.fn(crypto.hash) };
});

/**
 * The evidence pages' cache keys hash what each page shows (src/site/review-page-props.ts). They are
 * made from digests shared between lists; this holds them to the plain definition: the page's
 * heading and part, then per listed review the digest of its byline and, on aspect lists, its
 * reading and the sentence counted (what `evidenceItems` shows), then the shared props' digest.
 */
const { analysis, dataset } = await projectAnalysis();
const site = {
  dataset,
  urls: siteUrls("https://reviews.example"),
  verification: "Every review is in the log.",
  evidence: evidencePages(dataset, analysis.insights),
  counted: analysis.counted,
} as unknown as SiteData;

function plainKey(entry: ReturnType<typeof evidencePageEntries>[number], data: SiteData): string {
  const { page, part, ...props } = entry.props;
  const { reviews, ...meta } = page;
  const shared = hash(
    "sha256",
    JSON.stringify({
      business: props.business,
      aspects: props.aspects,
      urls: props.urls,
      verification: props.verification,
    }),
    "hex",
  );
  const items = evidenceItems(page, part, data.counted).map((item) => {
    const byline = JSON.stringify([item.id, item.title, item.rating, item.author, item.date]);
    const shown = page.aspect === undefined ? "" : JSON.stringify([item.reading ?? null, item.said ?? null]);
    return hash("sha256", `\n${byline}${shown}`, "hex");
  });
  return hash("sha256", `${JSON.stringify([meta, part])}${items.join("")}\n${shared}`, "hex");
}

describe("evidence page keys", () => {
  const entries = evidencePageEntries(site);

  it("hash exactly the page's heading, part, listed bylines, readings and sentences", () => {
    const aspectLists = entries.filter((e) => e.props.page.aspect !== undefined);
    const entityLists = aspectLists.filter((e) => e.props.page.entity !== undefined);
    expect(entries.length).toBeGreaterThan(aspectLists.length);
    expect(entityLists.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.cacheKey).toBe(plainKey(entry, site));
  });

  it("change with the sentence an entity's list shows, and only on the lists showing it", () => {
    const entry = entries.find(
      (e) =>
        e.props.page.entity !== undefined &&
        evidenceItems(e.props.page, e.props.part, site.counted).some((i) => i.said !== undefined),
    );
    if (!entry) throw new Error("no entity list shows a sentence");
    const { page, part } = entry.props;
    const item = evidenceItems(page, part, site.counted).find((i) => i.said !== undefined) as { id: string };
    const said = site.counted.get(item.id) as ReviewCounted;
    const changed = new ReviewCounted();
    for (const [key, value] of said) {
      const cut = key.lastIndexOf("/");
      changed.set(key.slice(cut + 1), cut < 0 ? "" : key.slice(0, cut), value);
    }
    changed.set(page.aspect as string, page.entity as string, { sentence: "Another sentence.", span: [0, 7] });
    const counted = new Map(site.counted).set(item.id, changed);
    const after = evidencePageEntries({ ...site, counted });
    const differ = after.filter((e, i) => e.cacheKey !== entries[i]?.cacheKey).map((e) => e.params.path);
    expect(differ).toEqual([entry.params.path]);
  });

  it("hash each listed review once per aspect and sentence shown, however many lists show it", () => {
    const shown = new Set<string>();
    for (const { props } of entries)
      for (const item of evidenceItems(props.page, props.part, site.counted))
        shown.add(JSON.stringify([item.id, props.page.aspect ?? null, item.said ?? null]));
    vi.mocked(hash).mockClear();
    evidencePageEntries(site);
    // One digest per distinct listed review, one key per page, one digest of the shared props.
    expect(vi.mocked(hash).mock.calls.length).toBe(shown.size + entries.length + 1);
    expect(shown.size).toBeLessThan(entries.reduce((n, e) => n + e.props.part.to - e.props.part.from, 0));
  });
});
