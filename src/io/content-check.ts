import path from "node:path";
import { ContentError, problem } from "../content/errors.ts";
import { fieldLine } from "../content/field-lines.ts";
import { inspectContent, type ReviewEntry, type ValidatedContent, type ValidateOptions } from "../content/validate.ts";
import type { InsightsContent } from "../insights/content-schema.ts";
import { readContentDir } from "./content-dir.ts";
import { loadInsightsContent } from "./insights-dir.ts";

/**
 * Every check the build makes on `content/`, in one pass, without building: what `npm run check`,
 * the pre-commit hook and the pull-request check run, and what the build itself calls, so both
 * print exactly the same `file: field: reason, got value` lines.
 */

export type ContentReport =
  | { ok: true; content: ValidatedContent; insights: InsightsContent; skipped: string[] }
  | { ok: false; problems: string[]; skipped: string[] };

/**
 * Validates reviews, business and insights. The insights are checked even when a review is broken
 * (against the ids the review file names promise), so one run lists every problem in every file.
 */
export async function checkContentDir(dir: string, opts: ValidateOptions): Promise<ContentReport> {
  const raw = await readContentDir(dir).catch(rethrowUnlessContentError);
  if (raw instanceof ContentError) return { ok: false, problems: [...raw.problems], skipped: [] };

  const { business, reviews, skipped, withdrawn, problems } = inspectContent(raw, opts);
  // Review ids are file names, so the FAQ's evidence can be checked even when a review is broken.
  const ids =
    problems.length > 0
      ? raw.reviews.filter((r) => !skipped.includes(r.file)).map((r) => path.basename(r.file, ".yaml"))
      : reviews.map((r) => r.id);
  const insights = await loadInsightsContent(dir, ids).catch(rethrowUnlessContentError);
  if (insights instanceof ContentError) problems.push(...insights.problems);
  else
    problems.push(
      ...editorLabelProblems(
        reviews,
        insights.aspects.map((a) => a.id),
        (file) => raw.reviews.find((r) => r.file === file)?.text,
      ),
    );
  if (problems.length > 0 || !business || insights instanceof ContentError) return { ok: false, problems, skipped };
  return { ok: true, content: { business, reviews, skipped, withdrawn }, insights, skipped };
}

/**
 * An editor's `aspects:` labels must name aspects of content/insights/aspects.yaml (their polarities
 * are checked by the review schema). Checked here, where both are read.
 */
export function editorLabelProblems(
  reviews: readonly ReviewEntry[],
  aspectIds: readonly string[],
  textOf: (file: string) => string | undefined = () => undefined,
): string[] {
  const valid = aspectIds.length > 0 ? `valid ids are ${aspectIds.join(", ")}` : "aspects.yaml defines no aspects";
  return reviews.flatMap((r) =>
    Object.keys(r.aspects ?? {})
      .filter((id) => !aspectIds.includes(id))
      .map((id) => {
        const text = textOf(r.file);
        const line = text === undefined ? undefined : fieldLine(text, ["aspects", id]);
        return problem(r.file, `aspects.${id}`, `unknown aspect id; ${valid}`, id, line);
      }),
  );
}

const LEFT_OUT = ": not filled in yet (text is empty); left out until it is";

/** The notice for a review left out of an `npm start` build because it is still a scaffold. */
export function skippedNotice(file: string): string {
  return `${file}${LEFT_OUT}`;
}

/** The report editors read: a count, then one problem per line, and nothing else. */
export function formatProblems(problems: readonly string[]): string {
  return new ContentError(problems).message;
}

function rethrowUnlessContentError(err: unknown): ContentError {
  if (err instanceof ContentError) return err;
  throw err;
}
