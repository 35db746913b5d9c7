import path from "node:path";
import type { z } from "zod";
import { catalogueProblems } from "./catalogues.ts";
import { utcDate } from "./dates.ts";
import { ContentError, formatIssues, messageStart, problem } from "./errors.ts";
import { fieldLine } from "./field-lines.ts";
import { type RuleContext, reviewRuleProblems, validCatalogues } from "./review-rules.ts";
import {
  type BusinessFile,
  BusinessFileSchema,
  Id,
  MAX_ID_LENGTH,
  type ReviewFile,
  ReviewFileSchema,
} from "./schema.ts";
import { isVerificationIssue, unstatedVerificationProblem, verificationUnstated } from "./verification.ts";
import { characterProblems } from "./well-formed.ts";
import { parseContentYaml } from "./yaml.ts";

/** A review file that passed validation, with where it came from. */
export interface ReviewEntry extends ReviewFile {
  id: string;
  /** Path shown in messages, relative to the working directory when inside it. */
  file: string;
}

export interface Content {
  business: BusinessFile;
  reviews: ReviewEntry[];
}

/** What validation yields: the content, and the review files it left out as not filled in yet. */
export interface ValidatedContent extends Content {
  /** Only ever non-empty with `unfinished: "skip"`. */
  skipped: string[];
  /** Reviews whose file says `withdrawn:`: off the public list, in the review log (docs/log.md). */
  withdrawn: ReviewEntry[];
}

/** Raw files as read from disk, before any validation. Kept separate so validation stays pure. */
export interface RawContent {
  /** `text` is absent when the file could not be read (`unread` says why). */
  business: { file: string; text?: string };
  reviews: { file: string; text: string }[];
  /**
   * One problem line for each file or folder nothing reads (beside business.yaml, under reviews/
   * but not `<year>/<id>.yaml`), saying where it belongs (src/io/stray-files.ts).
   */
  strays: string[];
  /**
   * Files and folders found but not read, with why (a link out of the folder, not UTF-8, …):
   * reported beside every other file's problems, so one such file never hides the rest.
   */
  unread?: { file: string; problems: readonly string[] }[];
}

export interface ValidateOptions {
  /** The clock reading that defines "the future"; injected so tests are stable. */
  now: Date;
  /**
   * What to do with a review whose `text` is still empty, as `npm run review:new` leaves it:
   * `"error"` (the default: production builds and `npm run check`, so a scaffold is never published)
   * reports it as not filled in yet; `"skip"` (npm start) leaves it out and lists it in `skipped`.
   */
  unfinished?: "error" | "skip";
  /**
   * Parses one file's YAML; default `parseContentYaml`. The build passes a cached one
   * (src/io/yaml-cache.ts), which must return what `parseContentYaml` would.
   */
  parse?: typeof parseContentYaml;
  /**
   * Review files that passed every check before, under `context` (the day, the mode and the
   * business file's text: all a review's check reads besides its own text). The build passes a
   * cache (src/io/yaml-cache.ts) whose reviews must be what this check made of the same text.
   */
  checked?: (context: string) => CheckedReviews;
}

/** What review files of a given text checked to, with no problem, in an earlier run. */
export interface CheckedReviews {
  /** The file's name counts: the check reads its year folder. */
  get(file: string, text: string): ReviewFile | undefined;
  put(file: string, text: string, review: ReviewFile): void;
}

/** The scaffold writes `text: ""`; an editor who has not pasted the review yet is not making a mistake. */
function isUnfinished(input: unknown): boolean {
  if (input === null || typeof input !== "object" || !("text" in input)) return false;
  const text = (input as { text: unknown }).text;
  return text === null || (typeof text === "string" && text.trim() === "");
}

/**
 * business.yaml is required: deleting it, as a review's advice says, would stop every build. Its
 * fields come from the schema, so the list is every field the file needs, never a stale few.
 */
const BUSINESS_EMPTY = `write the practice's details in it (${Object.entries(BusinessFileSchema.shape)
  .filter(([, field]) => !field.safeParse(undefined).success)
  .map(([key]) => key)
  .join(", ")}), or restore the committed one with git; the site cannot be built without them`;

export const NOT_FILLED_IN =
  "the text is not filled in yet — paste the review text after text: | (npm run review:new leaves it empty)";

/**
 * Validates raw content into typed business and review entries, applying every cross-file rule.
 * Collects all problems and throws one `ContentError` listing them.
 */
export function validateContent(raw: RawContent, opts: ValidateOptions): ValidatedContent {
  const { business, reviews, skipped, withdrawn, problems } = inspectContent(raw, opts);
  if (problems.length > 0 || !business) throw new ContentError(problems);
  return { business, reviews, skipped, withdrawn };
}

/**
 * Every problem in every file, without throwing, plus what is valid so far; `npm run check` also
 * reports the files it skipped when others have problems.
 */
export function inspectContent(
  raw: RawContent,
  { now, unfinished = "error", parse = parseContentYaml, checked }: ValidateOptions,
): Partial<Content> & {
  reviews: ReviewEntry[];
  skipped: string[];
  withdrawn: ReviewEntry[];
  problems: string[];
  /** The aspect ids of every review's `aspects:` labels, valid review or not, for the check against aspects.yaml. */
  labelled: { file: string; ids: string[] }[];
} {
  const problems: string[] = (raw.unread ?? []).flatMap((u) => u.problems);
  problems.push(...raw.strays);

  const { file: businessFile, text: businessText = "" } = raw.business;
  const businessInput =
    raw.business.text === undefined
      ? undefined
      : parseContentYaml(businessFile, businessText, problems, BUSINESS_EMPTY);
  const bParsed = businessInput === undefined ? undefined : BusinessFileSchema.safeParse(businessInput);
  if (bParsed && !bParsed.success) {
    problems.push(
      ...formatIssues(businessFile, bParsed.error.issues, businessInput, {
        text: businessText,
        schema: BusinessFileSchema,
      }),
    );
  }
  if (businessInput !== undefined) {
    problems.push(...characterProblems(businessFile, businessInput, businessText));
  }
  const business = bParsed?.success ? bParsed.data : undefined;
  const catalogues = business ?? validCatalogues(businessInput);
  if (business) problems.push(...catalogueProblems(businessFile, business, businessText));

  const today = utcDate(now);
  // A clean review stays clean as the clock moves on within the day: its only rules on the clock
  // say "not in the future".
  const memo = checked?.(`${today}\0${unfinished}\0${businessText}`);
  const seen = new Map<string, string>();
  const reviews: ReviewEntry[] = [];
  const withdrawn: ReviewEntry[] = [];
  const skipped: string[] = [];
  const labelled: { file: string; ids: string[] }[] = [];
  for (const { file, text } of raw.reviews) {
    const base = path.basename(file, ".yaml");
    const idOk = Id.safeParse(base);
    const prior = seen.get(base);
    // A file whose name is no id (or another file's) is still read, so its other problems show in
    // the same run; it is not published, whatever it holds.
    const named = idOk.success && prior === undefined;
    if (!idOk.success) {
      // A kebab-case name that is only too long is told so, with its length, not to change its letters.
      const tooLong = idOk.error.issues.every((i) => i.code === "too_big");
      problems.push(
        tooLong
          ? `${messageStart(file)}id: the file name is the review id and must be at most ${MAX_ID_LENGTH} characters before .yaml — shorten it, got ${[...base].length} characters`
          : problem(file, "id", "the file name is the review id and must be kebab-case a-z, 0-9 and hyphens", base),
      );
    } else if (prior !== undefined) {
      problems.push(problem(file, "id", `duplicate review id, already used by ${prior}`, base));
    } else seen.set(base, file);
    const add = (review: ReviewFile) => {
      if (named) (review.withdrawn ? withdrawn : reviews).push({ id: base, file, ...review });
    };
    const kept = named ? memo?.get(file, text) : undefined;
    if (kept) {
      add(kept);
      if (kept.aspects) labelled.push({ file, ids: Object.keys(kept.aspects) });
      continue;
    }
    const before = problems.length;
    try {
      const outcome = inspectReview(
        { file, text },
        { ctx: { today, nowMs: now.getTime(), catalogues, text }, unfinished, parse, labelled },
        problems,
      );
      if (outcome === "skipped") skipped.push(file);
      else if (outcome) {
        add(outcome.review);
        if (named && problems.length === before) memo?.put(file, text, outcome.review);
      }
    } catch (err) {
      // A fault of this program, not of the file as far as it can tell: named, never a stack trace.
      const why = err instanceof Error ? `${err.name}: ${err.message.split("\n")[0]?.slice(0, 200)}` : "unknown";
      problems.push(
        `${messageStart(file)}the check stopped on this file with an unexpected error (${why}) — compare the file with a review file that builds; if it looks right, report this message with the file attached`,
      );
    }
  }
  return { business, reviews, skipped, withdrawn, problems, labelled };
}

/**
 * One review file's problems, pushed to `problems`; what it holds when it is valid, `"skipped"` when
 * it is an unfinished scaffold left out, undefined otherwise.
 */
function inspectReview(
  { file, text }: { file: string; text: string },
  opts: {
    ctx: RuleContext;
    unfinished: "error" | "skip";
    parse: typeof parseContentYaml;
    labelled: { file: string; ids: string[] }[];
  },
  problems: string[],
): { review: ReviewFile } | "skipped" | undefined {
  const input = opts.parse(file, text, problems);
  if (input === undefined) return undefined;
  const draft = isUnfinished(input);
  if (draft && opts.unfinished === "skip") return "skipped";
  // Taken before the schema's verdict: a wrong rating or polarity must not hide a misspelt aspect id.
  const ids = labelIds(input);
  if (ids.length > 0) opts.labelled.push({ file, ids });
  const parsed = ReviewFileSchema.safeParse(input);
  const issues = parsed.success ? [] : parsed.error.issues;
  const isText = (issue: z.core.$ZodIssue) => draft && issue.path.length === 1 && issue.path[0] === "text";
  if (issues.some(isText)) problems.push(`${messageStart(file, fieldLine(text, ["text"]))}${NOT_FILLED_IN}`);
  const unstated = verificationUnstated(input);
  const reported = issues.filter((i) => !isText(i) && !(unstated && isVerificationIssue(i)));
  problems.push(...formatIssues(file, reported, input, { text, schema: ReviewFileSchema }));
  if (unstated) problems.push(unstatedVerificationProblem(file, input, text));
  problems.push(...characterProblems(file, input, text));
  problems.push(...reviewRuleProblems(file, input, issues, opts.ctx));
  if (!parsed.success) return undefined;
  return { review: parsed.data };
}

/** The ids an `aspects:` mapping labels, as written; none unless it is a mapping. */
function labelIds(input: unknown): string[] {
  const aspects = (input as { aspects?: unknown }).aspects;
  if (aspects === null || typeof aspects !== "object" || Array.isArray(aspects)) return [];
  // Over-long ids get the schema's own message; the unknown-id one would only repeat it.
  return Object.keys(aspects).filter((id) => [...id].length <= MAX_ID_LENGTH);
}
