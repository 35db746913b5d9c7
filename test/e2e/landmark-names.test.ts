import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";

// Landmarks of one role must have distinct names (WAI-ARIA APG; axe-core's landmark-unique), or a
// screen reader's landmark list repeats entries nobody can tell apart. An owner often answers
// several reviews on one day, so the fixture's two replies are dated alike here.
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");

let content: string;
let dist: string;
let pages = new Map<string, string>();

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-landmarks-"));
  await cp(FIXTURE, content, { recursive: true });
  const kevin = path.join(content, "reviews/2025/2025-01-14-kevin-m.yaml");
  await writeFile(kevin, (await readFile(kevin, "utf8")).replace("date: 2025-01-16", "date: 2025-03-13"));
  ({ distDir: dist, pages } = await builtPages(content, { BASE_URL: "https://reviews.example.org" }));
});

afterAll(async () => {
  await rm(content, { recursive: true, force: true });
  if (dist) await rm(dist, { recursive: true, force: true });
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** The accessible name of each named region, navigation or complementary landmark of a page. */
function landmarkNames(html: string): string[] {
  const names: string[] = [];
  for (const m of html.matchAll(/<(section|nav|aside)\b([^>]*)>/g)) {
    const attrs = m[2] ?? "";
    const label = /\saria-label="([^"]*)"/.exec(attrs)?.[1];
    const ids = /\saria-labelledby="([^"]*)"/.exec(attrs)?.[1]?.split(/\s+/) ?? [];
    const named = ids.map((id) => {
      const el = new RegExp(`<(h[1-6]|[a-z]+)\\b[^>]*\\sid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
      return text(el?.[2] ?? "");
    });
    const name = label ?? named.join(" ");
    if (name) names.push(`${m[1] === "section" ? "region" : m[1]}: ${name}`);
  }
  return names;
}

describe("landmarks", () => {
  it("gives no two landmarks of one role the same name on any page, replies of one day included", () => {
    const home = pages.get("index.html") ?? "";
    expect([...home.matchAll(/class="reply"/g)].length).toBeGreaterThanOrEqual(2);
    for (const [file, html] of pages) {
      const names = landmarkNames(html);
      const repeated = names.filter((n, i) => names.indexOf(n) !== i);
      expect(repeated, file).toEqual([]);
    }
  });
});
