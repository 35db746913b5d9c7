import path from "node:path";
import type { z } from "zod";
import { badCharacterLine } from "../content/characters.ts";
import { ContentError, fieldPath, formatIssues, messageStart, problem } from "../content/errors.ts";
import { fieldLine } from "../content/field-lines.ts";
import { characterProblems } from "../content/well-formed.ts";
import { parseContentYaml } from "../content/yaml.ts";
import {
  type AspectDefinition,
  AspectsFileSchema,
  EMPTY_LEXICON,
  FaqFileSchema,
  type FaqItem,
  type InsightsContent,
  type SentimentLexicon,
  SentimentLexiconSchema,
  SummaryFrontMatterSchema,
  SummaryTextSchema,
} from "./content-schema.ts";
import { type LearnedModel, LearnedModelSchema } from "./learned.ts";
import { PRESENCE_ID } from "./review-presence.ts";

/**
 * Reads and validates `content/insights/`: `aspects.yaml`, `sentiment.yaml`, `faq.yaml` and
 * `summary.md`. Each file is
 * optional (a site without insights content still builds, with empty sections), but a file that is
 * present must be valid, and every FAQ evidence id must name a published review.
 */

export const FILES = ["aspects.yaml", "sentiment.yaml", "faq.yaml", "summary.md", "model.json"] as const;
export type FileName = (typeof FILES)[number];

export interface RawInsightsContent {
  files: Partial<Record<FileName, { file: string; text: string }>>;
  /** Anything else in the folder, most likely a misnamed file (`aspects.yml`). */
  strays: string[];
}

function parseFile<T>(entry: Entry, schema: z.ZodType<T>, problems: string[]): T | undefined {
  // The content parser: one YAML dialect and one alias limit for every file under content/.
  // Every insights file is optional (docs/insights.md), so deleting an empty one is fine advice.
  const input = parseContentYaml(entry.file, entry.text, problems, INSIGHTS_EMPTY);
  if (input === undefined) return undefined;
  // What a double-quoted escape puts in a value: no control or bidi characters here either.
  const bad = characterProblems(entry.file, input, entry.text);
  if (bad.length > 0) {
    problems.push(...bad);
    return undefined;
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  problems.push(...formatIssues(entry.file, parsed.error.issues, input, { text: entry.text, schema }));
  return undefined;
}

/** Terms are compared the way the matcher sees them: case and spacing do not make a new term. */
const termKey = (t: string) => t.toLowerCase().replace(/\s+/g, " ").trim();

type Entry = { file: string; text: string };

const INSIGHTS_EMPTY = "write its entries in it, or delete it: the file is optional (docs/insights.md)";

/** A problem at a field of `entry`, with the line it is written on (`file: line N: field: …`). */
function at(entry: Entry, where: readonly PropertyKey[], message: string, got: unknown): string {
  return problem(entry.file, fieldPath(where), message, got, fieldLine(entry.text, where));
}

function checkAspects(entry: Entry, aspects: readonly AspectDefinition[], problems: string[]): void {
  const ids = new Map<string, number>();
  const terms = new Map<string, string>();
  aspects.forEach((a, i) => {
    const prior = ids.get(a.id);
    if (prior !== undefined) problems.push(at(entry, ["aspects", i, "id"], `duplicate id of aspects[${prior}]`, a.id));
    else ids.set(a.id, i);
    for (const field of ["terms", "neutral_terms", "given_names"] as const) {
      a[field].forEach((t, k) => {
        const here = ["aspects", i, field, k];
        const where = terms.get(termKey(t));
        if (where) problems.push(at(entry, here, `duplicate term, already in ${where}`, t));
        else terms.set(termKey(t), `${fieldPath(here)} (${a.id})`);
      });
    }
  });
}

/**
 * Every condition must name an aspect of aspects.yaml, and a word may sit in one list only: a term
 * that is both a condition and an opinion word would be read two ways.
 */
function checkLexicon(
  entry: Entry,
  lexicon: SentimentLexicon,
  aspects: readonly AspectDefinition[],
  problems: string[],
): void {
  const ids = aspects.map((a) => a.id);
  const seen = new Map<string, string>();
  const note = (t: string, here: readonly PropertyKey[]) => {
    const where = seen.get(termKey(t));
    if (where) problems.push(at(entry, here, `duplicate term, already in ${where}`, t));
    else seen.set(termKey(t), fieldPath(here));
  };
  const valid = ids.length > 0 ? `valid ids are ${ids.join(", ")}` : "aspects.yaml defines no aspects";
  const checkId = (field: readonly PropertyKey[], id: string | undefined) => {
    if (id !== undefined && !ids.includes(id)) problems.push(at(entry, field, `unknown aspect id; ${valid}`, id));
  };
  checkId(["abilities", "aspect"], lexicon.abilities?.aspect);
  checkId(["treatments", "aspect"], lexicon.treatments?.aspect);
  checkId(["delays"], lexicon.delays);
  checkId(["spending"], lexicon.spending);
  checkId(["nearby"], lexicon.nearby);
  lexicon.conditions.forEach((c, i) => {
    checkId(["conditions", i, "aspect"], c.aspect);
    c.terms.forEach((t, k) => {
      note(t, ["conditions", i, "terms", k]);
    });
  });
  for (const list of ["outcomes", "words"] as const) {
    for (const side of ["positive", "negative"] as const) {
      lexicon[list][side].forEach((t, k) => {
        note(t, [list, side, k]);
      });
    }
  }
  lexicon.neutral.forEach((t, k) => {
    note(t, ["neutral", k]);
  });
}

function checkEvidence(entry: Entry, faq: readonly FaqItem[], ids: EvidenceIds, problems: string[]) {
  faq.forEach((item, i) => {
    item.evidence.forEach((id, k) => {
      // Each id is published as a link under the answer: a repeat would list the same review twice.
      const first = item.evidence.indexOf(id);
      if (first < k) problems.push(at(entry, ["faq", i, "evidence", k], `already listed as evidence[${first}]`, id));
      // A withdrawn review's file exists: "no file has it" would send the editor looking for one.
      else if (ids.withdrawn.has(id)) problems.push(at(entry, ["faq", i, "evidence", k], WITHDRAWN, id));
      else if (!ids.published.has(id)) problems.push(at(entry, ["faq", i, "evidence", k], UNKNOWN, id));
    });
  });
}
const UNKNOWN = "unknown review id; no content/reviews/<year>/<id>.yaml has it";
const WITHDRAWN = "review withdrawn (its file says withdrawn:), so it is not published; remove it from the evidence";
type EvidenceIds = { published: ReadonlySet<string>; withdrawn: ReadonlySet<string> };

/** `withdrawn`: the ids of withdrawn reviews, which FAQ evidence may not cite either. */
type ValidateOptions = { today?: string; reserved?: readonly string[]; withdrawn?: ReadonlySet<string> };

/**
 * Pure validation of what `readInsightsDir` read; throws one ContentError listing every problem.
 * Given `today` (YYYY-MM-DD, UTC), a `reviewed:` date after it is one too; an aspect id among
 * `reserved` (the addresses of other evidence pages, src/site/evidence-paths.ts) is one as well.
 */
export function validateInsightsContent(
  raw: RawInsightsContent,
  reviewIds: ReadonlySet<string>,
  { today, reserved = [], withdrawn = new Set() }: ValidateOptions = {},
): InsightsContent {
  const problems: string[] = raw.strays.map((s) =>
    problem(s, "(file)", `unknown insights file; expected one of ${FILES.join(", ")}`, path.basename(s)),
  );
  const {
    "aspects.yaml": aspectsFile,
    "sentiment.yaml": lexiconFile,
    "faq.yaml": faqFile,
    "summary.md": summaryFile,
    "model.json": modelFile,
  } = raw.files;

  const aspects = aspectsFile ? parseFile(aspectsFile, AspectsFileSchema, problems)?.aspects : [];
  if (aspectsFile && aspects) checkAspects(aspectsFile, aspects, problems);
  // Here, not once the rest is valid: a renamed aspect also breaks sentiment.yaml and model.json,
  // and the editor fixing those should learn at once that the new id is taken.
  aspects?.forEach((a, i) => {
    if (aspectsFile && reserved.includes(a.id)) {
      const why = `is the address of other evidence pages (/insights/${a.id}/), so no aspect may take it (reserved: ${reserved.join(", ")}); choose another id`;
      problems.push(at(aspectsFile, ["aspects", i, "id"], why, a.id));
    }
  });

  // Without the file the analysis falls back to the general lexicon alone.
  const lexicon = lexiconFile ? parseFile(lexiconFile, SentimentLexiconSchema, problems) : EMPTY_LEXICON;
  if (lexiconFile && lexicon && aspects) checkLexicon(lexiconFile, lexicon, aspects, problems);

  const faqParsed = faqFile ? parseFile(faqFile, FaqFileSchema, problems) : { faq: [] };
  const faq = faqParsed?.faq;
  if (faqFile && faq) checkEvidence(faqFile, faq, { published: reviewIds, withdrawn }, problems);

  let summary = "";
  let summaryReviewed: string | undefined;
  let summaryFront: Entry | undefined;
  // Its body is no YAML, so the whole file is checked for the characters no content may hold here.
  const bad = summaryFile && badCharacterLine(summaryFile.text);
  if (summaryFile && bad) problems.push(`${messageStart(summaryFile.file, bad.line)}this line ${bad.message}`);
  else if (summaryFile) {
    const { front, body } = splitFrontMatter(summaryFile.text);
    if (front !== undefined) {
      summaryFront = { ...summaryFile, text: front };
      summaryReviewed = parseFile(summaryFront, SummaryFrontMatterSchema, problems)?.reviewed;
    }
    const parsed = SummaryTextSchema.safeParse(body);
    if (parsed.success) summary = parsed.data;
    else problems.push(...formatIssues(summaryFile.file, parsed.error.issues, body));
  }

  // The site prints "reviewed <date>" as the practice's word: a day still to come is no review.
  const reviewedDates = [
    [faqFile, faqParsed?.reviewed],
    [summaryFront, summaryReviewed],
  ] as const;
  for (const [entry, date] of reviewedDates) {
    if (entry && date && today && date > today)
      problems.push(at(entry, ["reviewed"], `must not be in the future (today is ${today})`, date));
  }

  const model = modelFile && aspects ? parseModel(modelFile, aspects, problems) : undefined;

  if (problems.length > 0 || !aspects || !lexicon || !faq) throw new ContentError(problems);
  return {
    aspects,
    lexicon,
    faq,
    summary,
    ...(summaryReviewed ? { summary_reviewed: summaryReviewed } : {}),
    ...(faqParsed?.reviewed ? { faq_reviewed: faqParsed.reviewed } : {}),
    ...(model ? { model } : {}),
  };
}

/**
 * `model.json`, the learned models (learned.ts): written by `npm run train:insights`, not by hand,
 * so it is JSON (read in one call; YAML would take seconds on it) and checked for what a hand edit
 * or a stale file would break: the shape, weight counts that fit the features, and aspect ids that
 * aspects.yaml defines.
 */
function parseModel(
  entry: { file: string; text: string },
  aspects: readonly AspectDefinition[],
  problems: string[],
): LearnedModel | undefined {
  let input: unknown;
  try {
    input = JSON.parse(entry.text);
  } catch (err) {
    problems.push(
      problem(
        entry.file,
        "(file)",
        `not valid JSON (${(err as Error).message}); run npm run train:insights to write it again`,
        entry.text.slice(0, 40),
      ),
    );
    return undefined;
  }
  const parsed = LearnedModelSchema.safeParse(input);
  if (!parsed.success) {
    problems.push(...formatIssues(entry.file, parsed.error.issues, input));
    return undefined;
  }
  const model = parsed.data;
  const { file } = entry;
  const weights = (field: string, list: readonly number[], features: readonly string[], per: 1 | 3) => {
    const expected = `expected ${per * features.length} weights (${per} per feature)`;
    if (list.length !== per * features.length) problems.push(problem(file, field, expected, list.length));
  };
  weights("polarity.weights", model.polarity.weights, model.polarity.features, 3);
  const ids = aspects.map((a) => a.id);
  model.aspects.models.forEach((a, i) => {
    if (!ids.includes(a.id)) {
      const message = `unknown aspect id; valid ids are ${ids.join(", ")}; run npm run train:insights after renaming an aspect`;
      problems.push(problem(file, `aspects.models[${i}].id`, message, a.id));
    }
    weights(`aspects.models[${i}].weights`, a.weights, model.aspects.features, 1);
  });
  // The review and presence parts (review-verdict.ts, review-presence.ts), when trained.
  if (model.review) weights("review.weights", model.review.weights, model.review.features, 3);
  model.presence?.models.forEach((a, i) => {
    if (i > 0) problems.push(problem(file, `presence.models[${i}]`, `one model only, "${PRESENCE_ID}"`, a.id));
    else if (a.id !== PRESENCE_ID)
      problems.push(problem(file, "presence.models[0].id", `expected "${PRESENCE_ID}"`, a.id));
    weights(`presence.models[${i}].weights`, a.weights, model.presence?.features ?? [], 1);
  });
  return model;
}

/**
 * `summary.md` may open with YAML front matter between two `---` lines (`reviewed: 2026-11-02`).
 * The front matter is kept line for line (a leading blank line stands for the opening `---`), so a
 * YAML problem is reported at the line the editor sees.
 */
export function splitFrontMatter(text: string): { front?: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { body: text };
  return { front: `\n${m[1]}`, body: text.slice(m[0].length) };
}
