import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../src/config.ts";
import { quoteValue } from "../src/content/characters.ts";
import { checkContentDir, formatProblems, skippedNotice } from "../src/io/content-check.ts";
import { contentFolderProblem, displayPath } from "../src/io/content-dir.ts";
import { explainContentFile } from "../src/io/explain-file.ts";
import { logProblems } from "../src/io/log-check.ts";
import { StagedContentError, withStagedContent } from "../src/io/staged-content.ts";

/**
 * `npm run check`: validates `content/` exactly as the build does (same rules, same messages) but
 * builds nothing, so it fits a pre-commit hook and a pull-request check. Exit 0 when the content
 * would build, 1 with one `file: field: reason, got value` line per problem, 2 on a bad environment.
 * A review whose text is still empty is a problem here, as in a production build, and so is a
 * deleted review that a review log holds (the published one, LOG_DIR or any under DATA_DIR/log/).
 *
 * `npm run check -- --staged` checks what is staged for the next commit (git's index) instead of the
 * working folder: the pre-commit hook, so an unstaged scaffold does not block committing the rest.
 *
 * No content makes it print a stack trace: a failure it did not expect is one line saying what
 * to do (exit 2).
 *
 * `npm run check -- --explain <file>` then prints the machine's reading of that review, sentence by
 * sentence (src/insights/explain.ts), so an editor can confirm or correct it with `aspects:`.
 */

const USAGE = "usage: npm run check [-- --staged | --explain content/reviews/<year>/<id>.yaml]";

export async function main(deps: {
  /** Command-line arguments after the script name; default none. */
  argv?: string[];
  env: NodeJS.ProcessEnv;
  now: Date;
  out: (line: string) => void;
  err: (line: string) => void;
  /** For reading the published review log; default the global fetch. */
  fetch?: typeof fetch;
}): Promise<number> {
  try {
    return await check(deps);
  } catch (err) {
    const why = err instanceof Error ? `${err.name}: ${err.message.split("\n")[0]}` : String(err);
    deps.err(
      `check: stopped by an unexpected error (${quoteValue(why)}) — run it again; if it says the same, report this line with the files you changed since the last check that passed`,
    );
    return 2;
  }
}

async function check(deps: Parameters<typeof main>[0]): Promise<number> {
  let explain: string | undefined;
  let staged: boolean | undefined;
  try {
    ({
      values: { explain, staged },
    } = parseArgs({
      args: deps.argv ?? [],
      options: { explain: { type: "string" }, staged: { type: "boolean" } },
      strict: true,
    }));
  } catch (err) {
    deps.err(`check: ${(err as Error).message}`);
    deps.err(USAGE);
    return 2;
  }
  if (staged && explain !== undefined) {
    deps.err("check: --staged and --explain go one at a time");
    deps.err(USAGE);
    return 2;
  }
  let dir: string;
  let unfinished: "error" | "skip";
  try {
    ({ CONTENT_DIR: dir, UNFINISHED_REVIEWS: unfinished } = loadConfig(deps.env));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    deps.err(err.message);
    return 2;
  }
  // Before any mode reads it: a mistyped CONTENT_DIR is the variable's problem, not a file's.
  const notContent = contentFolderProblem(dir);
  if (notContent !== undefined) {
    deps.err(notContent);
    return 2;
  }
  if (explain !== undefined) {
    const result = await explainContentFile(dir, explain, deps.now);
    if ("problems" in result) {
      deps.err(formatProblems(result.problems));
      return 1;
    }
    for (const line of result.lines) deps.out(line);
    return 0;
  }
  const opts = { now: deps.now, unfinished };
  let report: Awaited<ReturnType<typeof checkContentDir>>;
  try {
    report = staged
      ? await withStagedContent(dir, (copy) => checkContentDir(copy, { ...opts, shownAs: dir }))
      : await checkContentDir(dir, opts);
  } catch (err) {
    if (!(err instanceof StagedContentError)) throw err;
    deps.err(`check: ${err.message}`);
    return 2;
  }
  for (const file of report.skipped) deps.err(skippedNotice(file));
  // A review deleted after it was logged is refused as the build refuses it (src/io/review-log.ts).
  const problems = report.ok
    ? await logProblems(deps.env, report.content, { warn: deps.err, fetch: deps.fetch })
    : report.problems;
  if (!report.ok || problems.length > 0) {
    deps.err(formatProblems(problems));
    return 1;
  }
  const n = report.content.reviews.length;
  const what = staged ? " (as staged)" : "";
  deps.out(`${displayPath(dir)}${what}: ${n} review${n === 1 ? "" : "s"}, business and insights are valid`);
  return 0;
}

if (import.meta.main) {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    env: process.env,
    now: new Date(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
