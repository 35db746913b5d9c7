import { readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";

// A site published below a folder: every address a page gives of its own files must carry the folder.
const BASE = "https://reviews.example.org/willow";
const PREFIX = "/willow";
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");

let dist: string;
let pages = new Map<string, string>();

beforeAll(async () => {
  ({ distDir: dist, pages } = await builtPages(FIXTURE, { BASE_URL: BASE }));
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
});

/** The file of the build a root-relative address names, once the folder is taken off. */
async function fileOf(address: string): Promise<boolean> {
  const rel = decodeURIComponent(address.slice(PREFIX.length).split(/[?#]/)[0] ?? "");
  const file = path.join(dist, rel.endsWith("/") ? `${rel}index.html` : rel);
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

describe("a BASE_URL below a folder", () => {
  it("prefixes every root-relative href and src, stylesheets and icons included, and each names a built file", async () => {
    const stylesheets = new Set<string>();
    for (const [file, html] of pages) {
      for (const m of html.matchAll(/<(a|link|img|script)\b[^>]*?\s(?:href|src)="(\/[^"]*)"/g)) {
        const [, tag, address = ""] = m;
        expect(address, `${file}: <${tag}>`).toMatch(/^\/willow\//);
        if (tag === "link") stylesheets.add(address);
      }
    }
    expect([...stylesheets].some((s) => s.endsWith(".css"))).toBe(true);
    for (const address of stylesheets) expect(await fileOf(address), address).toBe(true);
  });
});

describe("robots.txt below a folder", () => {
  it("is written for the host's root, the only place crawlers read it (RFC 9309 §2.3): its rule and sitemap name the folder, and it says where it goes", async () => {
    const robots = await readFile(path.join(dist, "robots.txt"), "utf8");
    const lines = robots.split("\n").filter((l) => l && !l.startsWith("#"));
    expect(lines).toEqual(["User-agent: *", `Allow: ${PREFIX}/`, `Sitemap: ${BASE}/sitemap.xml`]);
    const comments = robots.split("\n").filter((l) => l.startsWith("#"));
    expect(comments.join(" ")).toContain("https://reviews.example.org/robots.txt");
    // Every comment comes before the group, so the file can be appended to the host's own as it is.
    expect(robots.startsWith(comments.join("\n"))).toBe(true);
  });
});

describe("addresses shown as text below a folder", () => {
  it("names the folder in every address the API reference and the log page show, as the home page's cards do", () => {
    const shown = (file: string) =>
      [...(pages.get(file) ?? "").matchAll(/<code\b[^>]*>(?:(?:GET|POST|DELETE) )?(\/[^<]*)<\/code>/g)].map(
        (m) => m[1] as string,
      );
    const reference = shown("api/index.html");
    const log = shown("log/index.html");
    expect(reference).toEqual(expect.arrayContaining([`${PREFIX}/reviews.json`, `${PREFIX}/api/reviews/search`]));
    expect(log).toEqual(
      expect.arrayContaining([`${PREFIX}/log/key`, `${PREFIX}/log/checkpoint`, `${PREFIX}/log/verifier/`]),
    );
    for (const address of [...shown("index.html"), ...reference, ...log]) expect(address).toMatch(/^\/willow\//);
  });
});
