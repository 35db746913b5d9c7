import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { type Browser, findChromium, launchChromium, layoutProblems } from "../helpers/browser.ts";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

/**
 * Reviewers paste links and write long unbroken words. Such a review, in its card (home, month and
 * its own page) and on the evidence pages that list it, must wrap inside the page in Chromium
 * rather than make it scroll sideways (docs/site.md, "Layout from 360 to 1440 px"); so must a link
 * in the practice's own summary and FAQ answers.
 */

const LINK = `https://www.example.com/${"a".repeat(120)}/photos?id=${"b".repeat(60)}`;
const WORD = "Pneumonoultramicroscopicsilicovolcanoconiosisandthensomemorewithoutanyspaces";
const REVIEW = `date: 2026-11-21
published_at: "2026-11-22T15:00:00Z"
rating: 2
author: Rosa L.
title: ${WORD}
text: |
  The parking was terrible and I got a ticket, the photo is at ${LINK} if you want to see it.
  Dr. Patel was kind.
source:
  platform: google
verification:
  method: appointment_record
  verified_on: 2026-11-22
`;

/** A link as the practice would write it in its summary or an FAQ answer: 90 characters. */
const EDITORIAL_LINK = "https://willowcreekchiro.example/patients/insurance-and-billing/frequently-asked-questions";

const chromiumPath = findChromium();
const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
const noChromium =
  chromiumPath || inCi ? undefined : "no Chromium found: install Debian's chromium or set CHROMIUM_PATH";

describeWithPackage(noChromium, "a review with a long link or word in Chromium", () => {
  let content: string;
  let dist: string;
  let app: TestApp;
  let browser: Browser;
  const pages: string[] = ["/", "/reviews/2026/11/", "/reviews/2026-11-21-rosa-l/"];

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error("CI is set but no Chromium was found: install it with apt-get install -y chromium");
    content = await mkdtemp(path.join(os.tmpdir(), "pr-long-words-"));
    await cp(PROJECT_CONTENT, content, { recursive: true });
    await writeFile(path.join(content, "reviews/2026/2026-11-21-rosa-l.yaml"), REVIEW);
    for (const name of ["insights/summary.md", "insights/faq.yaml"]) {
      const file = path.join(content, name);
      const text = await readFile(file, "utf8");
      // The last sentence of the summary and of the first answer end on the link.
      const edited = text.replace(
        /(ask the front desk for a benefits check and a written estimate|until the road work ends)\./,
        `$1: ${EDITORIAL_LINK}.`,
      );
      expect(edited, name).not.toBe(text);
      await writeFile(file, edited);
    }
    const build = await buildSite(content);
    if (build.code !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    dist = build.distDir;
    app = await startApp(dist, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
    browser = await launchChromium(chromiumPath);
    // Every evidence page the review's own page links, its aspects' lists (which quote its sentence) among them.
    const own = await (await fetch(`${app.url}/reviews/2026-11-21-rosa-l/`)).text();
    const evidence = [...own.matchAll(/href="(\/insights\/[a-z0-9/-]+\/)"/g)].map((m) => m[1] as string);
    expect(evidence.length).toBeGreaterThan(0);
    pages.push(...new Set(evidence), "/insights/ratings/2/");
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
    if (content) await rm(content, { recursive: true, force: true });
  });

  it("wraps it inside every page that shows it, from 360 to 1440 px", async () => {
    const shown: string[] = [];
    for (const url of pages) {
      const page = await browser.context.newPage();
      try {
        await page.setViewportSize({ width: 360, height: 900 });
        const res = await page.goto(`${app.url}${url}`, { waitUntil: "load" });
        expect(res?.status(), url).toBe(200);
        const html = await page.content();
        if (html.includes("a".repeat(120)) || html.includes(WORD)) shown.push(url);
        for (const width of [360, 768, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          expect((await layoutProblems(page, 12)).overflow, `${url} at ${width} px`).toEqual([]);
        }
      } finally {
        await page.close();
      }
    }
    // The link is quoted on at least one aspect's list, so the lists' own wrapping is exercised.
    expect(
      shown.filter((u) => u.startsWith("/insights/") && !u.startsWith("/insights/ratings/")).length,
    ).toBeGreaterThan(0);
    expect(shown).toEqual(expect.arrayContaining(["/", "/reviews/2026/11/", "/reviews/2026-11-21-rosa-l/"]));
  });

  it("wraps a link in the practice's summary and FAQ answers on a phone", async () => {
    const page = await browser.context.newPage();
    try {
      await page.setViewportSize({ width: 360, height: 900 });
      await page.goto(`${app.url}/`, { waitUntil: "load" });
      await page.evaluate(() => {
        for (const d of document.querySelectorAll("details")) d.open = true;
      });
      // Text that runs past its box widens no element, so each paragraph holding the link is measured itself.
      const widths = await page.evaluate((link) => {
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll("p")]
          .filter((p) => p.textContent?.includes(link))
          .map((p) => ({
            text: p.textContent?.slice(0, 40),
            fits: p.scrollWidth <= p.clientWidth && p.getBoundingClientRect().right <= width,
          }));
      }, EDITORIAL_LINK);
      expect(widths).toHaveLength(2);
      for (const w of widths) expect(w, w.text).toMatchObject({ fits: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await page.close();
    }
  });
});
