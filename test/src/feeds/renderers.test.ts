import path from "node:path";
import { extractFromXml } from "@extractus/feed-extractor";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRecords } from "../../../src/content/dataset.ts";
import type { Business, ReviewRecord } from "../../../src/content/records.ts";
import { renderAtomFeed } from "../../../src/feeds/atom.ts";
import { FEED_SIZE, type ListChanges, UNCHANGED } from "../../../src/feeds/entries.ts";
import { renderJsonFeed } from "../../../src/feeds/json-feed.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { siteUrls } from "../../../src/urls.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
const TAG = "tag:willowcreekchiro.example,2026:";

describe("feed renderers", () => {
  let business: Business;
  let records: ReviewRecord[];
  beforeAll(async () => {
    const content = await loadContent(FIXTURE, { now: new Date("2025-03-13T00:00:00Z") });
    business = content.business;
    records = buildRecords(content, BASE);
  });

  /** `count` reviews, one a day backwards from 2025-03-10, newest first. */
  function many(count: number): ReviewRecord[] {
    const template = records[0] as ReviewRecord;
    return Array.from({ length: count }, (_, i) => {
      const date = new Date(Date.UTC(2025, 2, 10 - i)).toISOString().slice(0, 10);
      return { ...template, id: `${date}-r${i}`, date, published_at: `${date}T12:00:00Z`, response: null };
    });
  }

  it("keeps entry and item ids when the site moves to another BASE_URL", () => {
    const ids = (xml: string) => [...xml.matchAll(/<id>([^<]*)<\/id>/g)].map((m) => m[1]);
    const here = renderAtomFeed(business, records, siteUrls(BASE), UNCHANGED);
    const moved = renderAtomFeed(business, records, siteUrls("https://elsewhere.example/reviews"), UNCHANGED);
    expect(ids(moved)).toEqual(ids(here));
    expect(moved).not.toEqual(here);
    const jsonIds = (s: string) => (JSON.parse(s).items as { id: string }[]).map((i) => i.id);
    expect(jsonIds(renderJsonFeed(business, records, siteUrls("https://elsewhere.example"), UNCHANGED))).toEqual(
      jsonIds(renderJsonFeed(business, records, siteUrls(BASE), UNCHANGED)),
    );
  });

  it("renders an empty dataset as a feed without entries, updated at the epoch", () => {
    const atom = renderAtomFeed(business, [], siteUrls(BASE), UNCHANGED);
    expect(atom).toContain("<updated>1970-01-01T00:00:00.000Z</updated>");
    expect(atom).not.toContain("<entry>");
    expect(JSON.parse(renderJsonFeed(business, [], siteUrls(BASE), UNCHANGED)).items).toEqual([]);
  });

  it(`carries only the ${FEED_SIZE} newest reviews`, () => {
    const reviews = many(FEED_SIZE + 3);
    const json = JSON.parse(renderJsonFeed(business, reviews, siteUrls(BASE), UNCHANGED));
    expect(json.items).toHaveLength(FEED_SIZE);
    expect(json.items.at(-1).id).toBe(`${TAG}review/${reviews[FEED_SIZE - 1]?.id}`);
    expect(renderAtomFeed(business, reviews, siteUrls(BASE), UNCHANGED).match(/<entry>/g)).toHaveLength(FEED_SIZE);
  });

  it("carries a backfilled review (an old visit date, published now) at the top of both feeds", () => {
    const reviews = many(FEED_SIZE + 3);
    // Visited long before every other review, published after all of them: last in the dataset.
    const late = { ...(reviews[0] as ReviewRecord), id: "2023-01-05-late", date: "2023-01-05" };
    late.published_at = "2025-03-12T09:00:00Z";
    const all = [...reviews, late];
    const json = JSON.parse(renderJsonFeed(business, all, siteUrls(BASE), UNCHANGED));
    expect(json.items).toHaveLength(FEED_SIZE);
    expect(json.items[0].id).toBe(`${TAG}review/${late.id}`);
    const atom = renderAtomFeed(business, all, siteUrls(BASE), UNCHANGED);
    expect(atom.match(/<entry>/g)).toHaveLength(FEED_SIZE);
    expect(atom.indexOf(`review/${late.id}`)).toBeLessThan(atom.indexOf(`review/${reviews[0]?.id}`));
    // The feed's `updated` follows the newest publication it carries.
    expect(atom.split("<entry>")[0]).toContain("<updated>2025-03-12T09:00:00.000Z</updated>");
    // The least recently published of the rest made room for it.
    expect(json.items.map((i: { id: string }) => i.id)).not.toContain(`${TAG}review/${reviews[FEED_SIZE - 1]?.id}`);
  });

  it("does not change the Atom feed when a review too old to be listed gets a reply", () => {
    const reviews = many(FEED_SIZE + 1);
    const oldest = reviews.at(-1) as ReviewRecord;
    const replied = reviews.map((r) =>
      r === oldest ? { ...r, response: { date: "2025-03-20", text: "Thanks!" } } : r,
    );
    expect(renderAtomFeed(business, replied, siteUrls(BASE), UNCHANGED)).toBe(
      renderAtomFeed(business, reviews, siteUrls(BASE), UNCHANGED),
    );
  });

  it("dates an entry changed after publication by the log's day, and a withdrawal of a listed review moves the feed", () => {
    const reviews = many(FEED_SIZE + 1);
    const edited = reviews[3] as ReviewRecord;
    const changes: ListChanges = { changedOn: new Map([[edited.id, "2025-04-02"]]), withdrawn: [] };
    const json = JSON.parse(renderJsonFeed(business, reviews, siteUrls(BASE), changes));
    const item = json.items.find((i: { id: string }) => i.id === `${TAG}review/${edited.id}`);
    expect(item.date_published).toBe(edited.published_at);
    expect(item.date_modified).toBe("2025-04-02T00:00:00Z");
    const atom = renderAtomFeed(business, reviews, siteUrls(BASE), changes);
    const parsed = extractFromXml(atom, { getExtraEntryFields: (e: { updated?: string }) => ({ updated: e.updated }) });
    const entry = parsed.entries?.find((e) => e.id === `${TAG}review/${edited.id}`) as { updated?: string };
    expect(entry.updated).toBe("2025-04-02T00:00:00.000Z");
    expect(atom.split("<entry>")[0]).toContain("<updated>2025-04-02T00:00:00.000Z</updated>");
    // A change logged on the day of publication moves nothing: the log keeps days.
    const sameDay = { changedOn: new Map([[edited.id, edited.published_at.slice(0, 10)]]), withdrawn: [] };
    expect(renderAtomFeed(business, reviews, siteUrls(BASE), sameDay)).toBe(
      renderAtomFeed(business, reviews, siteUrls(BASE), UNCHANGED),
    );

    // A withdrawal takes an entry out of the feed, which no remaining entry's date shows.
    const newest = reviews[0] as ReviewRecord;
    const left = reviews.slice(1);
    const gone: ListChanges = {
      changedOn: new Map(),
      withdrawn: [{ published_at: newest.published_at, leftOn: "2025-04-05" }],
    };
    expect(renderAtomFeed(business, left, siteUrls(BASE), gone).split("<entry>")[0]).toContain(
      "<updated>2025-04-05T00:00:00.000Z</updated>",
    );
    // One too old for a full feed to carry does not change its bytes; a file that is gone counts.
    const old: ListChanges = {
      changedOn: new Map(),
      withdrawn: [{ published_at: "2020-01-01T00:00:00Z", leftOn: "2025-04-05" }],
    };
    expect(renderAtomFeed(business, left, siteUrls(BASE), old)).toBe(
      renderAtomFeed(business, left, siteUrls(BASE), UNCHANGED),
    );
    const unknown: ListChanges = { changedOn: new Map(), withdrawn: [{ leftOn: "2025-04-05" }] };
    expect(renderAtomFeed(business, left, siteUrls(BASE), unknown)).toContain(
      "<updated>2025-04-05T00:00:00.000Z</updated>",
    );
    // Withdrawn on its own day of publication (a day later than the rest), it had set the feed's
    // time: the feed's updated stays there, it does not go back to that day's midnight.
    const ownDay: ListChanges = {
      changedOn: new Map(),
      withdrawn: [{ published_at: "2025-03-11T15:00:00Z", leftOn: "2025-03-11" }],
    };
    expect(renderAtomFeed(business, reviews, siteUrls(BASE), ownDay).split("<entry>")[0]).toContain(
      "<updated>2025-03-11T15:00:00.000Z</updated>",
    );
  });

  it('escapes customer text for Atom\'s type="html" so markup shows as text and the XML stays well-formed', () => {
    const hostile = {
      ...(records[0] as ReviewRecord),
      title: 'A <b>bold</b> & "quoted" ]]> title\u0001',
      text: "Line one <script>alert(1)</script> & more ]]> end\u0007\n\nSecond paragraph.",
    };
    const xml = renderAtomFeed(business, [hostile], siteUrls(BASE), UNCHANGED);
    expect(xml.includes("\u0001") || xml.includes("\u0007")).toBe(false);
    expect(xml).not.toContain("<script>");
    expect(xml).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more ]]&gt; end");
    expect(xml).toContain('<link rel="hub" href="https://reviews.example/api/websub/hub"/>');
    expect(xml).toContain('<link rel="self" href="https://reviews.example/feed.xml"/>');
    const entry = extractFromXml(xml, { descriptionMaxLen: 0 }).entries?.[0];
    expect(entry?.title).toBe('A <b>bold</b> & "quoted" ]]> title');
    // The reader turns the HTML back into text (dropping tags, as readers do with real markup).
    expect(entry?.description).toContain("& more ]]> end");
    expect(entry?.description).toContain("Second paragraph.");
  });
});
