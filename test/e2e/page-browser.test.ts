import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { type Browser, findChromium, launchChromium, layoutProblems, runAxe } from "../helpers/browser.ts";
import { buildSite } from "../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";
import { describeWithPackage } from "../helpers/system-packages.ts";

/**
 * The page as a visitor's browser renders it: the sample content built and served by the real
 * app, opened in Debian's Chromium at a phone and a desktop width. Skipped only when no Chromium
 * is installed, and never in CI (CI=true), where a missing browser fails the run instead.
 */

const CONTENT = PROJECT_CONTENT;
/** Full-page screenshots go here when it is set (for a person to look at); a run writes none otherwise. */
const SHOTS = process.env.SCREENSHOT_DIR ? path.resolve(process.env.SCREENSHOT_DIR) : undefined;
const WIDTHS = [390, 1280] as const;
/**
 * Home, the newest month page (found from the home page's archive), the newest review's page, the
 * evidence page of the first figure that links one, the 404 page, the review log's page and the API reference.
 */
const PAGES = ["home", "month", "review", "evidence", "not-found", "log", "api"] as const;

const chromiumPath = findChromium();
const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
const noChromium =
  chromiumPath || inCi ? undefined : "no Chromium found: install Debian's chromium or set CHROMIUM_PATH";

describeWithPackage(noChromium, "the page in Chromium", () => {
  let dist: string;
  let app: TestApp;
  let browser: Browser;
  const urls: Record<(typeof PAGES)[number], string> = {
    home: "/",
    month: "",
    review: "",
    evidence: "",
    "not-found": "/no-such-page",
    log: "/log/",
    api: "/api/",
  };

  beforeAll(async () => {
    if (!chromiumPath)
      throw new Error("CI is set but no Chromium was found: install it with apt-get install -y chromium");
    const build = await buildSite(CONTENT);
    if (build.code !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    dist = build.distDir;
    app = await startApp(dist, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
    browser = await launchChromium(chromiumPath);
    if (SHOTS) await mkdir(SHOTS, { recursive: true });
    const home = await (await fetch(`${app.url}/`)).text();
    urls.month = /<nav class="archive"[\s\S]*?<a href="(\/reviews\/\d{4}\/\d{2}\/)"/.exec(home)?.[1] ?? "";
    urls.review = /<a class="review__permalink" href="(\/reviews\/[a-z0-9-]+\/)"/.exec(home)?.[1] ?? "";
    urls.evidence = /<a href="(\/insights\/[a-z0-9/-]+\/)" data-count="[1-9]/.exec(home)?.[1] ?? "";
    expect(urls.month).not.toBe("");
    expect(urls.review).not.toBe("");
    expect(urls.evidence).not.toBe("");
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  /** Opens `url` at `width`, recording console messages and CSP violations from the first byte. */
  async function open(url: string, width: number): Promise<{ page: Page; status: number; console: string[] }> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const messages: string[] = [];
    page.on("console", (m) => {
      // The 404 page's own status is reported as a failed load; that is the point of the page.
      if (m.location().url === `${app.url}${url}` && /status of 404/.test(m.text())) return;
      messages.push(`${m.type()}: ${m.text()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`);
      });
    });
    const res = await page.goto(`${app.url}${url}`, { waitUntil: "load" });
    return { page, status: res?.status() ?? 0, console: messages };
  }

  for (const name of PAGES) {
    for (const width of WIDTHS) {
      it(`${name} at ${width} px: no axe violation, no sideways scrolling, no text under 12 px, a quiet console`, async () => {
        const { page, status, console: messages } = await open(urls[name], width);
        try {
          expect(status).toBe(name === "not-found" ? 404 : 200);
          // Closed <details> hide tables; open them so their layout is checked too.
          await page.evaluate(() => {
            for (const d of document.querySelectorAll("details")) d.open = true;
          });
          if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
          expect(await runAxe(page)).toEqual([]);
          expect(await layoutProblems(page, 12)).toEqual({ overflow: [], smallText: [] });
          // Stylesheets and the icon load (a blocked or missing one would leave a console error).
          expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
          expect(messages).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  }

  it("neither overflows nor shrinks text under 12 px anywhere from 360 to 1440 px", async () => {
    for (const name of PAGES) {
      const { page } = await open(urls[name], 360);
      try {
        await page.evaluate(() => {
          for (const d of document.querySelectorAll("details")) d.open = true;
        });
        for (const width of [360, 480, 640, 768, 1024, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          expect(await layoutProblems(page, 12), `${name} at ${width} px`).toEqual({ overflow: [], smallText: [] });
        }
      } finally {
        await page.close();
      }
    }
  });

  it("describes the practice as a MedicalClinic (a LocalBusiness) with its rating and reviews, in JSON-LD", async () => {
    for (const name of ["home", "month"] as const) {
      const { page } = await open(urls[name], 1280);
      const blocks = await page.$$eval('script[type="application/ld+json"]', (els) => els.map((e) => e.textContent));
      await page.close();
      expect(blocks).toHaveLength(1);
      const ld = JSON.parse(blocks[0] ?? "");
      expect(ld).toMatchObject({ "@context": "https://schema.org", "@type": "MedicalClinic" });
      expect(ld.aggregateRating).toMatchObject({ "@type": "AggregateRating" });
      expect(Number(ld.aggregateRating.reviewCount)).toBeGreaterThan(0);
      expect(ld.review.length).toBeGreaterThan(0);
      expect(ld.review[0]).toMatchObject({ "@type": "Review", reviewRating: { "@type": "Rating" } });
    }
  });

  it("describes a review's page as a schema.org Review of the practice, in JSON-LD", async () => {
    const { page } = await open(urls.review, 1280);
    const blocks = await page.$$eval('script[type="application/ld+json"]', (els) => els.map((e) => e.textContent));
    await page.close();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0] ?? "");
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Review",
      url: `http://localhost:4321${urls.review}`,
      reviewRating: { "@type": "Rating" },
      itemReviewed: { "@id": "http://localhost:4321/#business" },
    });
  });

  it("breaks the email address only after its @ on a phone", async () => {
    const { page } = await open("/", 360);
    const lines = await page.$eval('a[href^="mailto:"]', (a) =>
      [...a.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return {
            text: n.textContent,
            lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
          };
        }),
    );
    await page.close();
    expect(lines.map((l) => l.text).join("")).toMatch(/^[^@]+@[^@]+$/);
    for (const l of lines) expect(l.lines, l.text ?? "").toBe(1);
  });
});
