import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/**
 * Drives the system's Chromium (Debian's `chromium` package) with playwright-core, which never
 * downloads a browser. axe-core is injected through the DevTools protocol, which the pages'
 * Content-Security-Policy does not apply to, so the audit sees the page exactly as served.
 */

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** `CHROMIUM_PATH` if set, else the first system Chromium found; undefined when there is none. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p));
}

/** The flags of a quiet, reproducible headless run: no network of its own, no profile reuse. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile directory, removed again on close. */
export async function launchChromium(executablePath: string): Promise<Browser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), "pr-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: Promise<string> | undefined;

/** Runs every axe-core rule on the page and returns the violations, each with its failing selectors. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(await axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } }).axe;
    const { violations } = await axe.run(document);
    return (violations as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]).map(
      (v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }),
    );
  });
}

/** Elements wider than the viewport, or text smaller than `minPx` as rendered (SVG text scaled by its CTM). */
export function layoutProblems(page: Page, minPx: number): Promise<{ overflow: string[]; smallText: string[] }> {
  return page.evaluate((min) => {
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
    const width = document.documentElement.clientWidth;
    const overflow: string[] = [];
    if (document.documentElement.scrollWidth > width)
      overflow.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 1 && r.right > width + 0.5)
        overflow.push(`${describe(el)} right edge ${Math.round(r.right)} > ${width}`);
      const style = getComputedStyle(el);
      if (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth)
        overflow.push(`${describe(el)} scrolls sideways`);
    }
    const smallText: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim()) continue;
      const box = el.getBoundingClientRect();
      // Hidden text and the 1-px visually-hidden boxes are not read by eye.
      if (box.width <= 1 || box.height <= 1 || el.closest("[hidden], details:not([open]) > :not(summary)")) continue;
      let px = Number.parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) px *= el.getScreenCTM()?.a ?? 1;
      if (px < min - 0.01)
        smallText.push(`${describe(el)} "${node.textContent.trim().slice(0, 30)}" at ${px.toFixed(1)} px`);
    }
    return { overflow, smallText };
  }, minPx);
}
