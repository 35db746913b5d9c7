import type { AstroBuildResult } from "../src/build/astro-build.ts";
import { printableLine } from "../src/content/characters.ts";
import { skippedNotice } from "../src/io/content-check.ts";
import { type PageNotice, pageNotice } from "./http/build-notice.ts";
import type { Logger } from "./logger.ts";

/**
 * What `npm start` tells an editor about each build, in the terminal and on the page. A build's
 * own output (Astro's progress, kept out of the terminal unless LOG_LEVEL=debug) is not what an
 * editor reads: a failure is explained by the problems the build sent over its channel
 * (`AstroBuildResult.problems`), which name each file, line and fix exactly as `npm run check`
 * does; only a failure the content does not explain shows the end of the build's output. The
 * notice stays on every page until another build is served.
 */
export class BuildReport {
  readonly #logger: Logger;
  #notice?: PageNotice;
  /** The build being served, once there is one (`follow`). */
  #current?: () => unknown;
  /** The build the notice was raised over; `pending` until `follow` can say which. */
  #over?: { build: unknown } | "pending";

  constructor(logger: Logger) {
    this.#logger = logger;
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
   * terminal says so as soon as the build is done). The notice goes once it is live (`follow`).
   */
  succeeded(result: AstroBuildResult): void {
    for (const file of result.leftOut) this.#logger.warn(skippedNotice(file));
  }

  /**
   * A build failed: one error line, then its problems. `atStart`: the build `npm start` made before
   * serving anything, which is no save; call it once the earlier build in DIST_DIR is served.
   */
  failed(result: AstroBuildResult, atStart = false): void {
    const problems = failureProblems(result);
    this.#notice = pageNotice(problems);
    this.#over = this.#current ? { build: this.#current() } : "pending";
    this.#logger.error(
      { problems },
      atStart
        ? "the site could not be built; serving the earlier build in DIST_DIR"
        : "the save was not published; still serving the last good build",
    );
  }
}

/**
 * Why `npm start` cannot start when its first build failed and DIST_DIR holds no build to serve:
 * the build's problems, and nothing about a build to run (it would fail the same way).
 */
export function startFailure(result: AstroBuildResult, distDir: string): string {
  const problems = failureProblems(result);
  return `Cannot start: the site could not be built, and ${distDir} holds no earlier build to serve:\n${problems.map((p) => `  ${p}`).join("\n")}`;
}

/** The problems the build sent, or the end of its output when the content does not explain it. */
function failureProblems(result: AstroBuildResult): string[] {
  if (result.problems) return result.problems;
  const tail = `${result.stdout}${result.stderr}`
    .split("\n")
    // A stack trace's frames name this program's files, not the editor's: never shown.
    .filter((l) => l.trim() !== "" && !/^\s+at /.test(l))
    .slice(-15)
    .map(printableLine);
  const why = "the site could not be built, and not because of the content";
  return tail.length > 0 ? [`${why}; the build's last words were:`, ...tail] : [`${why}; see the build's output above`];
}
