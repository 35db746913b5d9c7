import type { z } from "zod";

/**
 * Content problems in the one format editors see: `file: field: what is wrong, got X`. A build
 * collects every problem before failing so an editor fixes a batch in one pass.
 */
export class ContentError extends Error {
  override name = "ContentError";
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      problems.length === 1
        ? `Invalid content: ${problems[0]}`
        : `Invalid content (${problems.length} problems):\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
    this.problems = problems;
  }
}

/** Renders a value the way an editor wrote it, shortened so one bad field can't flood a log. */
export function showValue(v: unknown): string {
  if (v === undefined) return "nothing (the field is missing)";
  const s = typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * One line per zod issue: `file: a.b[2]: message, got value`. An unknown field gets a line of its
 * own so it reads like every other problem; an over-long text reports its length, not its start.
 */
export function formatIssues(file: string, issues: readonly z.core.$ZodIssue[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => {
        const at = [...issue.path, key];
        return problem(file, fieldPath(at), "unknown field; check its spelling or remove it", valueAt(input, at));
      });
    }
    const field = issue.path.length ? fieldPath(issue.path) : "(file)";
    const got = valueAt(input, issue.path);
    if (issue.code === "too_big" && issue.origin === "string" && typeof got === "string") {
      return `${file}: ${field}: ${issue.message}, got ${got.trim().length} characters`;
    }
    return problem(file, field, issue.message, got);
  });
}

export function problem(file: string, field: string, message: string, got: unknown): string {
  return `${file}: ${field}: ${message}, got ${showValue(got)}`;
}

export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    "",
  );
}
