import path from "node:path";
import type { z } from "zod";
import { problem } from "./errors.ts";
import type { BusinessFile } from "./schema.ts";

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
  /** Absent when business.yaml itself is invalid; the id checks are then skipped. */
  business?: BusinessFile;
}

export function reviewRuleProblems(
  file: string,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  ctx: RuleContext,
): string[] {
  const problems: string[] = [];
  const get = fieldReader(input, issues);
  const { today } = ctx;
  const date = get("date");
  const publishedAt = get("published_at");
  const verifiedOn = get("verification", "verified_on");
  const responseDate = get("response", "date");
  const folderYear = path.basename(path.dirname(file));

  if (typeof date === "string") {
    if (folderYear !== date.slice(0, 4)) {
      problems.push(problem(file, "date", `must fall in ${folderYear}, the year folder the file is in`, date));
    }
    if (date > today) problems.push(problem(file, "date", `must not be in the future (today is ${today})`, date));
  }
  if (typeof publishedAt === "string" && Date.parse(publishedAt) > ctx.nowMs) {
    problems.push(problem(file, "published_at", "must not be in the future", publishedAt));
  }
  if (typeof verifiedOn === "string") {
    if (verifiedOn > today) {
      problems.push(
        problem(file, "verification.verified_on", `must not be in the future (today is ${today})`, verifiedOn),
      );
    }
    if (typeof date === "string" && verifiedOn < date) {
      problems.push(
        problem(file, "verification.verified_on", `must not be before the review date ${date}`, verifiedOn),
      );
    }
  }
  if (typeof responseDate === "string") {
    if (typeof date === "string" && responseDate < date) {
      problems.push(problem(file, "response.date", `must not be before the review date ${date}`, responseDate));
    }
    if (responseDate > today) {
      problems.push(problem(file, "response.date", `must not be in the future (today is ${today})`, responseDate));
    }
  }
  if (ctx.business) {
    for (const field of ["technicians", "services", "service_areas"] as const) {
      const ids = get(field);
      if (Array.isArray(ids)) checkRefs(file, field, ids as string[], ctx.business[field], problems);
    }
  }
  return problems;
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
  file: string,
  field: string,
  ids: readonly string[],
  catalogue: readonly { id: string }[],
  problems: string[],
): void {
  const valid = catalogue.map((c) => c.id);
  ids.forEach((id, i) => {
    if (!valid.includes(id)) {
      problems.push(
        problem(file, `${field}[${i}]`, `unknown id; expected one of ${valid.join(", ")} (see business.yaml)`, id),
      );
    }
  });
}
