import type { AstroBuildResult } from "../src/build/astro-build.ts";
import { checkContentDir, skippedNotices } from "../src/io/content-check.ts";
import { displayPath } from "../src/io/content-dir.ts";
import { logProblems } from "../src/io/log-check.ts";
import { type PageNotice, pageNotice } from "./http/build-notice.ts";
import type { Logger } from "./logger.ts";

/**
 * What `npm start` tells an editor about each build, in the terminal and on the page. A build's
 * own output (Astro's progress, kept out of the terminal unless LOG_LEVEL=debug) is not what an
 * editor reads: a failure is explained by running the content check here, which names each file,
 * line and fix exactly as `npm run check` does; only a failure the content does not explain
 * shows the end of the build's output. The notice stays on every page until another build is served.
 */
export class BuildReport {
  readonly #logger: Logger;
  readonly #contentDir: string;
  readonly #env: NodeJS.ProcessEnv;
  #notice?: PageNotice;
  /** The build being served, once there is one (`follow`). */
  #current?: () => unknown;
  /** The build the notice was raised over; `pending` until `follow` can say which. */
  #over?: { build: unknown } | "pending";

  /** `env`: the builds' environment, whose LOG_DIR says which deleted reviews the log refuses. */
  constructor(logger: Logger, contentDir: string, env: NodeJS.ProcessEnv) {
    this.#logger = logger;
    this.#contentDir = contentDir;
    this.#env = env;
  }

  /**
   * Ties the notice to the build it was raised over: once another build is served, the notice is
   * gone in the same instant, so no page of the new build carries it (no later reaction to wait for).
   */
  follow(current: () => unknown): void {
    this.#current = current;
    if (this.#over === "pending") this.#over = { build: current() };
  }

  /** The notice of the last failed build, while the build it was raised over is still served. */
  get notice(): PageNotice | undefined {
    const over = this.#over;
    if (this.#current && over && over !== "pending" && this.#current() !== over.build) return undefined;
    return this.#notice;
  }

  /**
   * A build succeeded: its left-out scaffolds are named at once (before it goes live, so the
   * terminal says so as soon as the build is done). The notice goes when it is live (`clear`).
   */
  succeeded(result: AstroBuildResult): void {
    for (const line of skippedNotices(result.stdout + result.stderr)) this.#logger.warn(line);
  }

  /** A build failed (`now`: the clock its content is checked against): one error line, then its problems. */
  async failed(result: AstroBuildResult, now: Date): Promise<void> {
    const report = await checkContentDir(this.#contentDir, { now, unfinished: "skip" }).catch(() => undefined);
    // Valid files can still fail the build: a logged review whose file was deleted (as npm run check says).
    const logged = report?.ok ? await logProblems(this.#env, report.content, { warn: () => {} }).catch(() => []) : [];
    let problems: string[];
    if (report && !report.ok) problems = report.problems;
    else if (logged.length > 0) problems = logged;
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
    this.#over = this.#current ? { build: this.#current() } : "pending";
    this.#logger.error({ problems }, "the save was not published; still serving the last good build");
  }
}
