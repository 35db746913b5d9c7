import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";

/** The FAQ on the home page as the practice wrote it in content/insights/faq.yaml (docs/insights.md). */

const ANSWER = [
  "It has improved. Throughout 2025 reviewers waited 20 to 40 minutes.",
  "Online booking launched in January 2026, and most recent reviewers were seen on time.",
];

let content: string;
let dist: string;
let home = "";
let reviews: { id: string; author: string; date: string }[] = [];

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-faq-"));
  await cp(PROJECT_CONTENT, content, { recursive: true });
  const file = path.join(content, "insights/faq.yaml");
  const faq = await readFile(file, "utf8");
  // The second question's answer becomes two paragraphs, as a literal block with a blank line between.
  const start = faq.indexOf("  - question: How long is the wait?");
  const end = faq.indexOf("    evidence:", start);
  expect(start).toBeGreaterThan(0);
  const answer = `    answer: |\n      ${ANSWER[0]}\n\n      ${ANSWER[1]}\n`;
  // The last answer cites no review: `evidence` is optional.
  const edited = `${faq.slice(0, start)}  - question: How long is the wait?\n${answer}${faq.slice(end)}`;
  const last = edited.lastIndexOf("    evidence:");
  expect(edited.indexOf("  - question:", last)).toBe(-1);
  await writeFile(file, edited.slice(0, last));
  let pages: Map<string, string>;
  ({ distDir: dist, pages } = await builtPages(content, { BASE_URL: "http://localhost:4321" }));
  home = pages.get("index.html") ?? "";
  reviews = JSON.parse(await readFile(path.join(dist, "reviews.json"), "utf8")).reviews;
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
  if (content) await rm(content, { recursive: true, force: true });
});

/** The markup of the FAQ entry whose question is `question`. */
function entry(question: string): string {
  const at = home.indexOf(`>${question}</summary>`);
  expect(at, question).toBeGreaterThan(0);
  return home.slice(at, home.indexOf("</details>", at));
}

describe("the FAQ on the home page", () => {
  it("shows an answer's paragraphs as paragraphs", () => {
    const paragraphs = [...entry("How long is the wait?").matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]);
    expect(paragraphs.slice(0, 2)).toEqual(ANSWER);
  });

  it("names each review an answer is based on by its author and date, not by its id", () => {
    const links = [
      ...entry("Is parking easy?").matchAll(/<a href="[^"]*\/reviews\/([a-z0-9-]+)\/"[^>]*>([^<]*)<\/a>/g),
    ];
    expect(links.length).toBeGreaterThan(1);
    for (const [, id, text] of links) {
      const r = reviews.find((x) => x.id === id);
      expect(r, id).toBeDefined();
      const [y, m, d] = (r?.date ?? "").split("-").map(Number) as [number, number, number];
      const day = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-US", { timeZone: "UTC", dateStyle: "long" });
      expect(text).toBe(`${r?.author}, ${day}`);
    }
  });

  it("says each answer links the reviews it is based on only when each one does", () => {
    const faq = home.slice(home.indexOf('id="faq-heading"'));
    const byline = faq.slice(0, faq.indexOf("</p>"));
    expect(entry("Is the adjustment painful?")).not.toContain("Based on");
    expect(byline).not.toContain("Each answer links");
    expect(byline).toContain("5 of the 6 answers link the reviews they are based on.");
  });
});
