/** The command line of `npm run review:new`: its flags, checked before anything is written. */

import { parseArgs } from "node:util";
import type { z } from "zod";
import { badCharacter } from "../../src/content/characters.ts";
import { isCalendarDate, utcDate } from "../../src/content/dates.ts";
import { showValue } from "../../src/content/errors.ts";
import { ReviewFileSchema, SOURCE_PLATFORMS, type VERIFICATION_METHODS } from "../../src/content/schema.ts";

/** `--verified-by` words, short and long, for the schema's methods. */
export const VERIFIED_BY: Readonly<Record<string, (typeof VERIFICATION_METHODS)[number]>> = {
  appointment_record: "appointment_record",
  invoice: "invoice",
  platform: "platform_verified",
  platform_verified: "platform_verified",
  email: "email_confirmation",
  email_confirmation: "email_confirmation",
};
export type Platform = (typeof SOURCE_PLATFORMS)[number];
export type Method = (typeof VERIFICATION_METHODS)[number];

/** What the command line asks for, checked: the review as far as the editor gave it. */
export interface ReviewNewArgs {
  author: string;
  rating?: number;
  /** The review's date; defaults to today (UTC). */
  date?: string;
  /** The review's title and text as pasted; the text is left empty for the editor when absent. */
  title?: string;
  text?: string;
  /** Where it was posted; left for the editor when absent. */
  platform?: Platform;
  /** How the editor verified it; left for the editor when absent (never assumed). */
  verifiedBy?: Method;
}

export const USAGE =
  'usage: npm run review:new -- --author "Maria G." [--rating 5] [--date YYYY-MM-DD] [--title "…"] [--text "…"] [--platform google|yelp|facebook|healthgrades|direct] [--verified-by appointment_record|invoice|platform|email]';

/**
 * A refused value as the check shows one: its length when it is too long, else the value quoted and
 * shortened, so a pasted review of thousands of characters is not printed back whole.
 */
const shown = (v: string, issue?: z.core.$ZodIssue) =>
  issue?.code === "too_big" ? `${[...v.trim()].length} characters` : showValue(v);

/** Parses the command line; returns the options or the problems, each naming the flag and value. */
export function parseCommandLine(argv: string[], now: Date): ReviewNewArgs | { errors: string[] } {
  let values: {
    author?: string;
    rating?: string;
    date?: string;
    title?: string;
    text?: string;
    platform?: string;
    "verified-by"?: string;
  };
  let tokens: ReturnType<typeof parseArgs>["tokens"];
  try {
    ({ values, tokens } = parseArgs({
      tokens: true,
      args: argv,
      options: {
        author: { type: "string" },
        rating: { type: "string" },
        date: { type: "string" },
        title: { type: "string" },
        text: { type: "string" },
        platform: { type: "string" },
        "verified-by": { type: "string" },
      },
      strict: true,
    }));
  } catch (err) {
    return { errors: [(err as Error).message] };
  }
  // A line pasted on Windows ends in CR LF, which a YAML reader takes for one line break, as in a file.
  for (const field of ["author", "title", "text"] as const) values[field] = values[field]?.replace(/\r\n/g, "\n");
  const errors: string[] = repeatedOptions(tokens ?? []);
  const author = ReviewFileSchema.shape.author.safeParse(values.author ?? "");
  if (!author.success)
    errors.push(
      `--author: ${author.error.issues[0]?.message}, got ${shown(values.author ?? "", author.error.issues[0])}`,
    );
  if (values.rating !== undefined && !/^[1-5]$/.test(values.rating)) {
    errors.push(`--rating: expected an integer from 1 to 5, got ${JSON.stringify(values.rating)}`);
  }
  const today = utcDate(now);
  if (values.date !== undefined && !isCalendarDate(values.date)) {
    errors.push(`--date: expected a real calendar date as YYYY-MM-DD, got ${JSON.stringify(values.date)}`);
  } else if (values.date !== undefined && values.date > today) {
    errors.push(`--date: must not be in the future (today is ${today}), got ${JSON.stringify(values.date)}`);
  }
  for (const field of ["title", "text"] as const) {
    const v = values[field];
    const ok = v === undefined || ReviewFileSchema.shape[field].safeParse(v);
    if (ok !== true && !ok.success)
      errors.push(`--${field}: ${ok.error.issues[0]?.message}, got ${shown(v ?? "", ok.error.issues[0])}`);
  }
  for (const field of ["author", "title", "text"] as const) {
    const v = values[field];
    const bad = v === undefined ? undefined : badCharacter(v, { names: field !== "text" });
    if (bad) errors.push(`--${field}: ${bad.message}, got ${shown(v as string)}`);
  }
  const platform = values.platform;
  if (platform !== undefined && !(SOURCE_PLATFORMS as readonly string[]).includes(platform)) {
    errors.push(`--platform: expected one of ${SOURCE_PLATFORMS.join(", ")}, got ${JSON.stringify(platform)}`);
  }
  const by = values["verified-by"];
  // Own keys only: `constructor` or `toString` would otherwise find Object's and be written as the method.
  const verifiedBy = by === undefined || !Object.hasOwn(VERIFIED_BY, by) ? undefined : VERIFIED_BY[by];
  if (by !== undefined && verifiedBy === undefined) {
    errors.push(
      `--verified-by: expected how you verified the review: appointment_record, invoice, platform or email, got ${JSON.stringify(by)}`,
    );
  }
  if (verifiedBy === "platform_verified" && platform === "direct") {
    errors.push(
      "--verified-by platform: a review sent to the practice (--platform direct) was not verified by a platform; give the method you used",
    );
  }
  if (errors.length > 0 || !author.success) return { errors };
  return {
    author: author.data,
    rating: values.rating === undefined ? undefined : Number(values.rating),
    date: values.date,
    title: values.title,
    text: values.text,
    platform: platform as Platform | undefined,
    verifiedBy,
  };
}

/** parseArgs keeps the last of a repeated option; the first would be dropped without a word. */
function repeatedOptions(tokens: NonNullable<ReturnType<typeof parseArgs>["tokens"]>): string[] {
  const given = new Map<string, string[]>();
  for (const t of tokens) if (t.kind === "option") given.set(t.name, [...(given.get(t.name) ?? []), t.value ?? ""]);
  return [...given]
    .filter(([, values]) => values.length > 1)
    .map(
      ([name, values]) =>
        `--${name}: given ${values.length === 2 ? "twice" : `${values.length} times`} (${values.map((v) => showValue(v)).join(" and ")}); give it once, with the value you mean`,
    );
}
