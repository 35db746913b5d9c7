import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { extractFromXml } from "@extractus/feed-extractor";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../helpers/build-site.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * One real build of the fixture with values the content schema accepts but a feed must still
 * carry faithfully: a `published_at` with a fraction of a second, a business URL with a space,
 * names that hold what looks like an XML escape (`&amp;` typed as text, as copied from a web page),
 * and paragraphs parted by a line that holds only spaces (an editor's trailing whitespace).
 */
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.example";
const FRACTION = "2025-03-12T17:45:00.750Z";
const AUTHOR = "Tom &amp; Jerry &lt;3";
const BUSINESS = "Willow Creek &amp; Co";

const temp = tempFolders();
let json: {
  title: string;
  authors: { url?: string }[];
  items: { id: string; date_published: string; date_modified: string; authors: { name: string }[] }[];
};
let atom: string;
let home: string;
let gregPage: string;

beforeAll(async () => {
  const dir = await temp.copy(FIXTURE, "pr-feed-edge-");
  const business = path.join(dir, "business.yaml");
  const yaml = await readFile(business, "utf8");
  await writeFile(
    business,
    yaml
      .replace(/^url: .*$/m, "url: https://willowcreekchiro.example/our practice")
      .replace(/^name: .*$/m, `name: "${BUSINESS}"`),
  );
  const lauren = path.join(dir, "reviews/2025/2025-03-10-lauren-m.yaml");
  await writeFile(lauren, (await readFile(lauren, "utf8")).replace(/^author: .*$/m, `author: "${AUTHOR}"`));
  const carlos = path.join(dir, "reviews/2025/2025-03-10-carlos-d.yaml");
  await writeFile(
    carlos,
    (await readFile(carlos, "utf8")).replace(/^published_at: .*$/m, `published_at: "${FRACTION}"`),
  );
  const greg = path.join(dir, "reviews/2024/2024-05-17-greg-h.yaml");
  await writeFile(
    greg,
    (await readFile(greg, "utf8")).replace("patiently. The problem", "patiently.\n    \n  The problem"),
  );
  const result = await buildSite(dir, { BASE_URL: BASE });
  if (result.code !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  temp.add(result.distDir);
  json = JSON.parse(await readFile(path.join(result.distDir, "api/feed.json"), "utf8"));
  atom = await readFile(path.join(result.distDir, "feed.xml"), "utf8");
  home = await readFile(path.join(result.distDir, "index.html"), "utf8");
  gregPage = await readFile(path.join(result.distDir, "reviews/2024-05-17-greg-h/index.html"), "utf8");
});

describe("JSON Feed values the content schema allows", () => {
  it("never dates an item's change before its publication, fraction of a second included", () => {
    const carlos = json.items.find((i) => i.id.endsWith("review/2025-03-10-carlos-d"));
    expect(carlos).toMatchObject({ date_published: FRACTION, date_modified: FRACTION });
    for (const item of json.items) {
      expect(Date.parse(item.date_modified)).toBeGreaterThanOrEqual(Date.parse(item.date_published));
      // Equal instants can still differ in digits Date.parse drops; the spelling must not go back either.
      if (Date.parse(item.date_modified) === Date.parse(item.date_published)) {
        expect(item.date_modified).toBe(item.date_published);
      }
    }
  });

  it("writes the business URL as a valid URI, the same one the Atom feed's author has", () => {
    const ajv = new Ajv2020();
    addFormats(ajv);
    const isUri = ajv.compile({ type: "string", format: "uri" });
    const url = json.authors[0]?.url;
    expect(url).toBe("https://willowcreekchiro.example/our%20practice");
    expect(isUri(url)).toBe(true);
    let atomAuthor: unknown;
    extractFromXml(atom, {
      getExtraFeedFields: (f) => {
        atomAuthor = (f.author as { uri?: string } | undefined)?.uri;
        return {};
      },
    });
    expect(atomAuthor).toBe(url);
  });
});

describe("Atom values the content schema allows", () => {
  const parsed = () =>
    new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "entry" || name === "author" }).parse(atom)
      .feed as {
      title: string;
      subtitle: string;
      author: { name: string }[];
      entry: { id: string; author: { name: string }[] }[];
    };

  it("carries names that contain an escape-like `&amp;` as written, as the JSON Feed does", () => {
    const feed = parsed();
    const lauren = feed.entry.find((e) => e.id.endsWith("review/2025-03-10-lauren-m"));
    expect(lauren?.author[0]?.name).toBe(AUTHOR);
    const item = json.items.find((i) => i.id.endsWith("review/2025-03-10-lauren-m"));
    expect(item?.authors[0]?.name).toBe(AUTHOR);
    expect(feed.author[0]?.name).toBe(BUSINESS);
    expect(feed.title).toBe(json.title);
    expect(feed.title).toBe(`${BUSINESS}: verified reviews`);
    expect(feed.subtitle).toContain(BUSINESS);
  });
});

describe("Atom paragraphs", () => {
  it("parts a review's paragraphs where its page does, at a line that holds only spaces", () => {
    const entry = atom.split("<entry>").find((e) => e.includes("review/2024-05-17-greg-h</id>")) ?? "";
    const content = /<content type="html"><!\[CDATA\[(.*?)\]\]><\/content>/s.exec(entry)?.[1] ?? "";
    const inFeed = [...content.matchAll(/<p>(.*?)<\/p>/g)].map((m) => m[1]);
    const onPage = [...gregPage.matchAll(/<p[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]);
    const parted = [
      "The treatment itself was fine and Tom walked me through my home exercises patiently.",
      "The problem was billing: nobody mentioned the x-rays would be charged separately until the statement arrived.",
    ];
    expect(onPage).toEqual(expect.arrayContaining(parted));
    expect(inFeed).toEqual(expect.arrayContaining(parted));
    expect(content).not.toMatch(/<br>\s*<br>/);
  });
});

describe("JSON-LD values the content schema allows", () => {
  it("names the business by the same valid URI as the feeds", () => {
    const blocks = [...home.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) =>
      JSON.parse(m[1] as string),
    );
    const urls = JSON.stringify(blocks).match(/"url":"https:\/\/willowcreekchiro\.example[^"]*"/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u).toBe('"url":"https://willowcreekchiro.example/our%20practice"');
  });
});
