import type { AstroBuildResult } from "../src/build/astro-build.ts";
import { checkContentDir, skippedNotices } from "../src/io/content-check.ts";
import { displayPath } from "../src/io/content-dir.ts";
import { type PageNotice, pageNotice } from "./http/build-notice.ts";
import type { Logger } from "./logger.ts";

/**
 * What `npm start` tells an editor about each build, in the terminal and on the page. A build's
 * own output (Astro's progress, kept out of the terminal unless LOG_LEVEL=debug) is not what an
 * editor reads: a failure is explained by running the content check here, which names each file,
 * line and fix exactly as `npm run check` does; only a failure the content does not explain
 * shows the end of the build's output. The notice stays on every page until a build succeeds.
 */
export class BuildReport {
  readonly #logger: Logger;
  readonly #contentDir: string;
  #notice?: PageNotice;

  constructor(logger: Logger, contentDir: string) {
    this.#logger = logger;
    this.#contentDir = contentDir;
  }

  /** The notice of the last failed build, until one succeeds. */
  get notice(): PageNotice | undefined {
    return this.#notice;
  }

  /** A build succeeded: its left-out scaffolds are named and any notice goes. */
  succeeded(result: AstroBuildResult): void {
    for (const line of skippedNotices(result.stdout + result.stderr)) this.#logger.warn(line);
    this.clear();
  }

  /**
   * A build is live: the notice goes at once, as the first reaction to the swap, not after the
   * slower ones (hub fan-out, other instances), so no page served from the new build carries it.
   */
  clear(): void {
    this.#notice = undefined;
  }

  /** A build failed (`now`: the clock its content is checked against): one error line, then its problems. */
  async failed(result: AstroBuildResult, now: Date): Promise<void> {
    const report = await checkContentDir(this.#contentDir, { now, unfinished: "skip" }).catch(() => undefined);
    let problems: string[];
    if (report && !report.ok) problems = report.problems;
    else {
      const tail = `${result.stdout}${result.stderr}`
        .split("\n")
        .filter((l) => l.trim() !== "")
        .slice(-15);
      const why = `the site could not be built, and ${displayPath(this.#contentDir)} looks fine`;
      problems =
        tail.length > 0 ? [`${why}; the build's last words were:`, ...tail] : [`${why}; see the build's output above`];
    }
    this.#notice = pageNotice(problems);
    this.#logger.error({ problems }, "the save was not published; still serving the last good build");
  }
}
