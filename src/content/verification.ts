import type { z } from "zod";
import { messageStart } from "./errors.ts";
import { fieldLine } from "./field-lines.ts";
import { VERIFICATION_METHODS } from "./schema.ts";

/**
 * "Verified by appointment record on …" is a public claim the practice makes on every review's
 * page and record, so it is a statement an editor writes, never a default: a review whose
 * verification is missing, or written without a method (as `npm run review:new` leaves it unless
 * told `--verified-by`), is refused with one message saying what to state.
 */

export const STATE_VERIFICATION =
  "say how this review was verified (appointment record, invoice, the platform it was posted on, or an email confirmation)";

const HOW = `method: (one of ${VERIFICATION_METHODS.join(", ")}) and verified_on: (the day you checked, YYYY-MM-DD); the label is shown to readers (docs/editors.md)`;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** Whether the review's verification is missing, or written with no method yet. */
export function verificationUnstated(input: unknown): boolean {
  // A file that is a list is no review at all: its one message says so.
  if (input === null || typeof input !== "object" || Array.isArray(input)) return false;
  const v = (input as { verification?: unknown }).verification;
  if (blank(v)) return true;
  return typeof v === "object" && v !== null && !Array.isArray(v) && blank((v as { method?: unknown }).method);
}

/** The schema issues the one message replaces: every issue about the verification. */
export const isVerificationIssue = (issue: z.core.$ZodIssue) => issue.path[0] === "verification";

/** The message for an unstated verification, on the line of its method (or of verification:). */
export function unstatedVerificationProblem(file: string, input: unknown, text: string): string {
  const written = (input as { verification?: unknown }).verification !== undefined;
  if (!written)
    return `${messageStart(file)}the verification is missing — ${STATE_VERIFICATION}: add verification: with ${HOW}`;
  const line = fieldLine(text, ["verification", "method"]);
  return `${messageStart(file, line)}the verification is not stated yet — ${STATE_VERIFICATION}: write under verification: ${HOW}`;
}
