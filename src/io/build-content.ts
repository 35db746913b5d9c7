import path from "node:path";
import { astroCacheDir } from "../build/astro-build.ts";
import { failBuild, tellParent } from "../build/build-channel.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { printableLine } from "../content/characters.ts";
import type { ValidatedContent } from "../content/validate.ts";
import type { InsightsContent } from "../insights/content-schema.ts";
import type { LoggedReview } from "../log/entries.ts";
import { checkContentDir, skippedNotice } from "./content-check.ts";
import { displayPath } from "./content-dir.ts";
import { yamlCache } from "./yaml-cache.ts";

/**
 * The checked content of one `astro build`: `CONTENT_DIR` read and validated once per process.
 *
 * Astro evaluates this module more than once in a build: through `content.config.ts` while it
 * syncs the content collections, again inside the bundled pages, and through the integrations.
 * A module-level variable would be one per copy, so the promise lives on `globalThis` under a
 * registered symbol, which every copy in the process resolves to the same slot. The reviews are
 * read from here rather than from an Astro collection: a collection would parse every review a
 * second time, keep it in Astro's data store, serialise the store into its cache and embed it as
 * one string in the bundle, which at 100,000 reviews would be most of the build's memory.
 */
export interface BuildContent {
  content: ValidatedContent;
  insights: InsightsContent;
  /** The public reviews' logged fields (`reviewFields`), made once by the check. */
  fields: LoggedReview[];
}

/** Where a notice about a left-out scaffold goes: Astro's logger in a loader, stderr otherwise. */
export interface NoticeLogger {
  warn(message: string): void;
}

const SLOT = Symbol.for("public-reviews/build-memo");
type Slot = { [SLOT]?: Map<string, unknown> };

/**
 * `make()` once per build, shared by every copy of the calling module in this process. Module-level
 * memos are not enough: Astro evaluates several copies of a module within one build, and npm
 * start's build worker runs many builds in one process (each imports its own bundle: see
 * src/build/astro-worker-main.ts), so the memo lives on `globalThis` and the worker clears it
 * before each build (`forgetBuildContent`).
 */
export function perBuild<T>(name: string, make: () => T): T {
  const slot = globalThis as Slot;
  slot[SLOT] ??= new Map<string, unknown>();
  const memo = slot[SLOT];
  if (!memo.has(name)) memo.set(name, make());
  return unreleased(name, memo.get(name)) as T;
}

/** What `releasePages` let go of: asking for it again is a mistake in the integrations' order, not a reason to make it twice. */
const RELEASED = Symbol("released after the pages");

function unreleased(name: string, value: unknown): unknown {
  if (value === RELEASED)
    throw new Error(
      `${name}: this build let go of it once the pages were written (src/integrations/release-site-data.ts); whatever reads it must come before releaseSiteData() in astro.config.mjs`,
    );
  return value;
}

/** `perBuild`'s name for `siteData()` (src/site/site-data.ts), which integrations read with `madeThisBuild`. */
export const SITE_DATA = "site-data";

/**
 * What `perBuild(name, …)` made in this build, without making it: for integrations, which read
 * what the pages made (the first page that asks makes the site data) rather than make it earlier.
 */
export function madeThisBuild<T>(name: string): T | undefined {
  return unreleased(name, (globalThis as Slot)[SLOT]?.get(name)) as T | undefined;
}

const PATH_LISTS = "static-path-lists";

/**
 * A route's `getStaticPaths` list, noted for `releasePages` (once the pages are written) and
 * `releaseBuild` (once the build is over, for a build that failed before), which empty it. Astro
 * keeps each list in the route cache of the build's bundle, and Node never unloads a module: in npm
 * start's build worker every earlier build's pages' props (its records, its
 * evidence lists, about 33 MB at 10,000 reviews) stayed reachable, build after build.
 */
export function releasedAfterBuild<T>(list: T[]): T[] {
  perBuild(PATH_LISTS, () => [] as unknown[][]).push(list);
  return list;
}

/**
 * For npm start's build worker, after a build: empties the lists `releasedAfterBuild` noted (and
 * the index by parameters that Astro adds to each, `keyed`) if `releasePages` has not, then forgets
 * what `perBuild` kept (the review log, which `releasePages` keeps). Nothing of the build is read
 * after it ends; the next build makes everything again.
 */
export function releaseBuild(): void {
  emptyPathLists();
  forgetBuildContent();
}

/**
 * Once Astro has written every page and the files made from the site data beside them
 * (`/reviews.json`, the sitemap): empties the route lists and forgets the content and site data,
 * keeping only what `keep` names (the review log, written next). What the build does after it (the
 * log's tiles, the header manifest over every file) then reuses their memory: at 100,000 reviews
 * those steps made the build's peak RSS, with about 350 MB of records and page props that nothing
 * read any more.
 */
export function releasePages(keep: readonly string[]): void {
  const memo = (globalThis as Slot)[SLOT];
  if (!memo) return;
  emptyPathLists();
  for (const name of [...memo.keys()]) if (!keep.includes(name)) memo.set(name, RELEASED);
}

function emptyPathLists(): void {
  const lists = (globalThis as Slot)[SLOT]?.get(PATH_LISTS);
  if (!Array.isArray(lists)) return; // none yet, or released already
  for (const list of lists as (unknown[] & { keyed?: Map<unknown, unknown> })[]) {
    list.length = 0;
    list.keyed?.clear();
  }
}

const stderrLogger: NoticeLogger = { warn: (message) => process.stderr.write(`${message}\n`) };

/**
 * Forgets everything `perBuild` kept for the last build. `npm start`'s build worker
 * (src/build/astro-worker-main.ts) runs many builds in one process, so it calls this before each:
 * without it every later build would publish the content of the process's first one.
 */
export function forgetBuildContent(): void {
  delete (globalThis as Slot)[SLOT];
}

/**
 * The content of this build, checked on the first call. A problem ends the build with exactly the
 * lines `npm run check` prints, sent to the parent too (`failBuild`); left-out scaffolds are named
 * the same two ways.
 */
export function buildContent(logger: NoticeLogger = stderrLogger): Promise<BuildContent> {
  return perBuild("content", async () => {
    const config = loadConfig();
    // Parsed files are kept in Astro's cache folder between builds (yaml-cache.ts). Builds run
    // from the project root; this module is bundled, so it has no path of its own.
    const cache = yamlCache(path.join(astroCacheDir(config.ASTRO_CACHE_KEY ?? config.DIST_DIR, process.cwd()), "yaml"));
    const report = await checkContentDir(config.CONTENT_DIR, {
      now: new Date(),
      unfinished: config.UNFINISHED_REVIEWS,
      parse: cache.parse,
      checked: cache.checked,
      mentions: cache.mentions,
    }).catch((err: unknown) => {
      cache.abort();
      // Not a problem of a file it could name: one line, never Astro's stack trace of this loader.
      const why = err instanceof Error ? `${err.name}: ${err.message.split("\n")[0]}` : String(err);
      const line = printableLine(
        err instanceof ConfigError
          ? err.message
          : `${displayPath(config.CONTENT_DIR)}: the content check stopped with an unexpected error (${why}) — run npm run check to see which file; if it says the same, report this line`,
      );
      return failBuild([line], line);
    });
    cache.finish();
    for (const file of report.skipped) logger.warn(skippedNotice(file));
    if (report.skipped.length > 0) await tellParent({ type: "left-out", files: [...report.skipped] });
    if (!report.ok) return failBuild(report.problems);
    return { content: report.content, insights: report.insights, fields: report.fields };
  });
}
