import path from "node:path";
import type { z } from "zod";
import { problem } from "./errors.ts";
import { fieldLine } from "./field-lines.ts";
import { type BusinessFile, BusinessFileSchema } from "./schema.ts";

/**
 * The rules of a review file that its schema cannot express: dates against the clock, the folder and
 * each other, and ids against the business catalogues. They run on every field that is valid on its
 * own, even when the file has other problems, so an unknown field or a bad rating never hides a
 * date in the wrong year: an editor sees every problem of a file in one run.
 */

export interface RuleContext {
  /** Today as YYYY-MM-DD (UTC) and the clock in ms: what "in the future" means. */
  today: string;
  nowMs: number;
  /** The catalogues of business.yaml that are valid; the id checks of one that is not are skipped. */
  catalogues: Catalogues;
  /** The file's text, to name the line of each problem. */
  text?: string;
}

/** Where a rule reports a problem: the field, what is wrong and the value, located by the caller. */
interface ProblemSink {
  push(p: { field: string; message: string; got: unknown }): void;
}

const CATALOGUES = ["technicians", "services", "service_areas"] as const;
export type Catalogues = Partial<Pick<BusinessFile, (typeof CATALOGUES)[number]>>;

/**
 * The catalogues of business.yaml (as read, valid or not) that are valid on their own: a problem
 * elsewhere in the file (its telephone) must not hide a review's unknown id.
 */
export function validCatalogues(input: unknown): Catalogues {
  if (input === null || typeof input !== "object") return {};
  const found: Catalogues = {};
  for (const field of CATALOGUES) {
    const parsed = BusinessFileSchema.shape[field].safeParse((input as Record<string, unknown>)[field]);
    if (parsed.success) Object.assign(found, { [field]: parsed.data });
  }
  return found;
}

export function reviewRuleProblems(
  file: string,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  ctx: RuleContext,
): string[] {
  const found: string[] = [];
  const get = fieldReader(input, issues);
  const { text } = ctx;
  const problems: ProblemSink = {
    push(p) {
      const at = p.field
        .split(/[.[\]]/)
        .filter(Boolean)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      found.push(problem(file, p.field, p.message, p.got, text === undefined ? undefined : fieldLine(text, at)));
    },
  };
  const { today } = ctx;
  const folderYear = path.basename(path.dirname(file));
  // A date refused as in the future is as invalid as a misspelt one: no rule compares another
  // field with it (its problem is the one to fix), so each is checked against the clock first.
  const afterToday = (s: string) => s > today;
  const notFuture = (field: string, v: unknown, isFuture = afterToday, aside = ` (today is ${today})`) => {
    if (typeof v !== "string") return undefined;
    if (!isFuture(v)) return v;
    problems.push({ field, message: `must not be in the future${aside}`, got: v });
    return undefined;
  };
  const dateField = get("date");
  if (typeof dateField === "string" && folderYear !== dateField.slice(0, 4)) {
    problems.push({
      field: "date",
      message: `must fall in ${folderYear}, the year folder the file is in`,
      got: dateField,
    });
  }
  const date = notFuture("date", dateField);
  const publishedAt = notFuture("published_at", get("published_at"), (s) => Date.parse(s) > ctx.nowMs, "");
  // The day it was published, as its own offset reads it: a review is published once written.
  const publishedOn = publishedAt?.slice(0, 10);
  if (publishedOn !== undefined && date !== undefined && publishedOn < date) {
    problems.push({
      field: "published_at",
      message: `must not be before the review date ${date}: a review is published after it is written`,
      got: publishedAt,
    });
  }
  const withdrawnOn = notFuture("withdrawn.date", get("withdrawn", "date"));
  if (withdrawnOn !== undefined && publishedOn !== undefined && withdrawnOn < publishedOn) {
    problems.push({
      field: "withdrawn.date",
      message: `must not be before the review was published (published_at is ${publishedAt})`,
      got: withdrawnOn,
    });
  }
  const method = get("verification", "method");
  if (method === "platform_verified" && get("source", "platform") === "direct") {
    problems.push({
      field: "verification.method",
      message:
        "platform_verified says the platform the review was posted on confirmed the reviewer, but source.platform is direct (posted here) — choose the method you used, or set source.platform",
      got: method,
    });
  }
  for (const [field, at] of [
    ["verification.verified_on", ["verification", "verified_on"]],
    ["response.date", ["response", "date"]],
  ] as const) {
    const day = notFuture(field, get(...at));
    if (day !== undefined && date !== undefined && day < date) {
      problems.push({ field, message: `must not be before the review date ${date}`, got: day });
    }
  }
  for (const field of CATALOGUES) {
    const ids = get(field);
    const catalogue = ctx.catalogues[field];
    if (Array.isArray(ids) && catalogue) checkRefs(field, ids as string[], catalogue, problems);
  }
  return found;
}

/**
 * Reads a field from the raw input only when no schema issue touches it (an unknown key elsewhere
 * does not count), so the rules never run on a value the editor must fix anyway.
 */
function fieldReader(input: unknown, issues: readonly z.core.$ZodIssue[]) {
  const bad = issues.filter((i) => i.code !== "unrecognized_keys").map((i) => i.path.map(String));
  return (...at: string[]): unknown => {
    const touched = bad.some((p) => p.every((k, n) => n >= at.length || k === at[n]));
    if (touched) return undefined;
    let cur = input;
    for (const key of at) {
      if (cur === null || typeof cur !== "object") return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
    return cur;
  };
}

function checkRefs(
  field: string,
  ids: readonly string[],
  catalogue: readonly { id: string }[],
  problems: ProblemSink,
): void {
  const valid = catalogue.map((c) => c.id);
  ids.forEach((id, i) => {
    if (!valid.includes(id)) {
      problems.push({
        field: `${field}[${i}]`,
        message: `unknown id; expected one of ${valid.join(", ")} (see business.yaml)`,
        got: id,
      });
    }
  });
}
