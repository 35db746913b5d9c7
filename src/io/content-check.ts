import path from "node:path";
import { fileLabel, printableLine } from "../content/characters.ts";
import { type MentionsCache, reviewFields } from "../content/dataset.ts";
import { utcDate } from "../content/dates.ts";
import { ContentError, fieldPath, messageStart, problem } from "../content/errors.ts";
import { fieldLine } from "../content/field-lines.ts";
import { inspectContent, type ValidatedContent, type ValidateOptions } from "../content/validate.ts";
import type { InsightsContent } from "../insights/content-schema.ts";
import { type RawInsightsContent, validateInsightsContent } from "../insights/validate-content.ts";
import { type LoggedReview, MAX_ENTRY_BYTES } from "../log/entries.ts";
import { RESERVED_SEGMENTS } from "../site/evidence-paths.ts";
import { readContentDir, type ShownAs } from "./content-dir.ts";
import { readInsightsDir } from "./insights-dir.ts";

/**
 * Every check the build makes on `content/`, in one pass, without building: what `npm run check`,
 * the pre-commit hook and the pull-request check run, and what the build itself calls, so both
 * print exactly the same `file: field: reason, got value` lines.
 */

export type ContentReport =
  | {
      ok: true;
      content: ValidatedContent;
      insights: InsightsContent;
      skipped: string[];
      /** The public reviews' logged fields (`reviewFields`): made for the size check, kept for the build. */
      fields: LoggedReview[];
    }
  | { ok: false; problems: string[]; skipped: string[] };

/**
 * Validates reviews, business and insights. The insights are checked even when a review is broken
 * (against the ids the review file names promise), so one run lists every problem in every file.
 */
export async function checkContentDir(
  dir: string,
  opts: ValidateOptions & ShownAs & { mentions?: MentionsCache },
): Promise<ContentReport> {
  const raw = await readContentDir(dir, opts);
  const { business, reviews, skipped, withdrawn, problems, labelled } = inspectContent(raw, opts);
  // Review ids are file names, so the FAQ's evidence can be checked even when a review is broken
  // or could not be read.
  const unreadReviews = (raw.unread ?? []).filter((u) => u.file !== raw.business.file && u.file.endsWith(".yaml"));
  const gone = new Set(withdrawn.map((r) => r.id));
  const ids =
    problems.length > 0
      ? [...raw.reviews.filter((r) => !skipped.includes(r.file)), ...unreadReviews]
          .map((r) => path.basename(r.file, ".yaml"))
          .filter((id) => !gone.has(id))
      : reviews.map((r) => r.id);
  const rawInsights = await readInsightsDir(dir, opts).catch(rethrowUnlessContentError);
  const insights =
    rawInsights instanceof ContentError ? rawInsights : insightsOf(rawInsights, ids, gone, utcDate(opts.now));
  if (insights instanceof ContentError) problems.push(...insights.problems);
  const aspectIds =
    insights instanceof ContentError
      ? validAspectIds(rawInsights, utcDate(opts.now))
      : insights.aspects.map((a) => a.id);
  if (aspectIds !== undefined) {
    problems.push(
      ...editorLabelProblems(labelled, aspectIds, (file) => raw.reviews.find((r) => r.file === file)?.text),
    );
  }
  const content = business ? { business, reviews, skipped, withdrawn } : undefined;
  // Measured on the reviews that are valid, whatever else is wrong: a problem in another file must not hide it.
  const fields = content && reviewFields(content, opts.mentions?.(content.business));
  if (content && fields) {
    problems.push(...oversizedProblems(content, fields, (file) => raw.reviews.find((r) => r.file === file)?.text));
  }
  if (problems.length > 0 || !content || !fields || insights instanceof ContentError) {
    return { ok: false, problems: problems.map(printableLine), skipped };
  }
  return { ok: true, content, insights, skipped, fields };
}

/**
 * A review whose record would not fit one review-log entry (MAX_ENTRY_BYTES, src/log/entries.ts):
 * every field has its own limit, but together, with the ids detected in its text, they could
 * still exceed it. Measured on the record as logged (`fields`, the reviews' `reviewFields`), so the
 * bound is the log's own.
 */
export function oversizedProblems(
  content: ValidatedContent,
  fields: readonly LoggedReview[],
  textOf: (file: string) => string | undefined = () => undefined,
): string[] {
  const files = new Map(content.reviews.map((r) => [r.id, r.file]));
  return fields.flatMap((f) => {
    const bytes = Buffer.byteLength(JSON.stringify({ event: "published", id: f.id, review: f }));
    if (bytes <= MAX_ENTRY_BYTES) return [];
    const file = files.get(f.id) ?? f.id;
    const line = textOf(file) === undefined ? undefined : 1;
    return [
      `${messageStart(file, line)}the review is too long for the review log: its entry would be ${bytes} bytes, more than the ${MAX_ENTRY_BYTES} an entry may hold — shorten its text, response or id lists`,
    ];
  });
}

/**
 * An editor's `aspects:` labels must name aspects of content/insights/aspects.yaml (their polarities
 * are checked by the review schema). Checked here, where both are read.
 */
export function editorLabelProblems(
  reviews: readonly { file: string; ids: readonly string[] }[],
  aspectIds: readonly string[],
  textOf: (file: string) => string | undefined = () => undefined,
): string[] {
  const valid = aspectIds.length > 0 ? `valid ids are ${aspectIds.join(", ")}` : "aspects.yaml defines no aspects";
  return reviews.flatMap((r) =>
    r.ids
      .filter((id) => !aspectIds.includes(id))
      .map((id) => {
        const text = textOf(r.file);
        const line = text === undefined ? undefined : fieldLine(text, ["aspects", id]);
        return problem(r.file, fieldPath(["aspects", id]), `unknown aspect id; ${valid}`, id, line);
      }),
  );
}

const LEFT_OUT = ": not filled in yet (text is empty); left out until it is";

/** The notice for a review left out of an `npm start` build because it is still a scaffold. */
export function skippedNotice(file: string): string {
  return `${fileLabel(file)}${LEFT_OUT}`;
}

/** The report editors read: a count, then one problem per line, and nothing else. */
export function formatProblems(problems: readonly string[]): string {
  return new ContentError(problems).message;
}

function insightsOf(
  raw: RawInsightsContent,
  ids: readonly string[],
  withdrawn: ReadonlySet<string>,
  today: string,
): InsightsContent | ContentError {
  try {
    return validateInsightsContent(raw, new Set(ids), { today, reserved: RESERVED_SEGMENTS, withdrawn });
  } catch (err) {
    return rethrowUnlessContentError(err);
  }
}

/**
 * The ids of aspects.yaml when it is valid on its own though another insights file is not: a
 * problem in faq.yaml must not hide a review's unknown aspect label.
 */
function validAspectIds(raw: RawInsightsContent | ContentError, today: string): string[] | undefined {
  if (raw instanceof ContentError) return undefined;
  const alone = insightsOf({ files: { "aspects.yaml": raw.files["aspects.yaml"] }, strays: [] }, [], new Set(), today);
  return alone instanceof ContentError ? undefined : alone.aspects.map((a) => a.id);
}

function rethrowUnlessContentError(err: unknown): ContentError {
  if (err instanceof ContentError) return err;
  throw err;
}
