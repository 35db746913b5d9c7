import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import jsYaml from "js-yaml";
import { loadConfig } from "../src/config.ts";
import { badCharacter, quoteValue } from "../src/content/characters.ts";
import { isCalendarDate, msToRfc3339, utcDate } from "../src/content/dates.ts";
import { BusinessFileSchema, ReviewFileSchema, SOURCE_PLATFORMS, VERIFICATION_METHODS } from "../src/content/schema.ts";
import { displayPath } from "../src/io/content-dir.ts";
import { explainContentFile } from "../src/io/explain-file.ts";

/**
 * `npm run review:new -- --author "Maria G." [--rating 5] [--date YYYY-MM-DD] [--title "…"] [--text "…"]
 *   [--platform google|yelp|facebook|healthgrades|direct] [--verified-by appointment_record|invoice|platform|email]`
 *
 * Scaffolds `content/reviews/<year>/<date>-<author-slug>.yaml` with every required field present
 * and commented, so adding a review is one file and one commit. The text is left empty (and the
 * rating too unless given) on purpose: the build refuses the file until an editor fills them, so a
 * half-done scaffold can never be published. Given `--text` and `--rating`, the file is complete and
 * the machine's reading of it is printed sentence by sentence (as `npm run check -- --explain`), so
 * the editor can confirm or correct it with `aspects:` before committing.
 *
 * It never states a verification or a platform on its own: "verified by …" is a public claim, so
 * `verification.method` and `source.platform` are written only as told (`--verified-by`,
 * `--platform`) and otherwise left empty for the editor, and `npm run check` refuses the file
 * until they are filled in.
 */

/** `--verified-by` words, short and long, for the schema's methods. */
export const VERIFIED_BY: Readonly<Record<string, (typeof VERIFICATION_METHODS)[number]>> = {
  appointment_record: "appointment_record",
  invoice: "invoice",
  platform: "platform_verified",
  platform_verified: "platform_verified",
  email: "email_confirmation",
  email_confirmation: "email_confirmation",
};
type Platform = (typeof SOURCE_PLATFORMS)[number];
type Method = (typeof VERIFICATION_METHODS)[number];

export interface ReviewNewOptions {
  contentDir: string;
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
  now: Date;
}

/** `José Núñez` -> `jose-nunez`: ASCII kebab-case, because the slug becomes part of the review id. */
export function authorSlug(author: string): string {
  const slug = author
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug || "review";
}

/** Every review id in use, in any year folder: ids are unique across the whole site. */
async function idsInUse(reviewsDir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const years = await readdir(reviewsDir, { withFileTypes: true }).catch(() => []);
  for (const y of years.filter((d) => d.isDirectory())) {
    for (const f of await readdir(path.join(reviewsDir, y.name))) {
      if (f.endsWith(".yaml")) ids.add(f.slice(0, -".yaml".length));
    }
  }
  return ids;
}

/** Catalogue ids listed in the template's comments; omitted when business.yaml can't be read. */
async function catalogueHint(contentDir: string): Promise<string[]> {
  const text = await readFile(path.join(contentDir, "business.yaml"), "utf8").catch(() => "");
  const parsed = BusinessFileSchema.safeParse(jsYaml.load(text || "{}", { schema: jsYaml.CORE_SCHEMA }));
  if (!parsed.success) return [];
  const b = parsed.data;
  return (["technicians", "services", "service_areas"] as const).flatMap((k) =>
    wrapComment(`${k}: ${b[k].map((c) => c.id).join(", ")}`, "#   ", "#       "),
  );
}

/** Splits a comment at spaces so the scaffold stays readable in a narrow editor. */
function wrapComment(text: string, first: string, rest: string, width = 100): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(" ")) {
    const prefix = lines.length === 0 ? first : rest;
    if (line.length + word.length + 1 > width && line !== prefix) {
      lines.push(line.trimEnd());
      line = rest;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

function template(o: {
  id: string;
  date: string;
  today: string;
  publishedAt: string;
  author: string;
  rating?: number;
  title?: string;
  text?: string;
  platform?: Platform;
  verifiedBy?: Method;
  hint: string[];
}): string {
  const scalar = (v: string) => jsYaml.dump(v, { lineWidth: -1 }).trimEnd();
  return [
    `# Review ${o.id}, scaffolded by \`npm run review:new\`.`,
    "# The file name is the review's permanent id: do not rename it once published. Fill in every",
    "# REQUIRED field; `npm run check` names any field that is still missing or wrong.",
    "",
    `# REQUIRED. Day of the review as YYYY-MM-DD, in ${o.date.slice(0, 4)} (the folder this file is in).`,
    `date: ${o.date}`,
    "# REQUIRED. When the review was added to this site (RFC 3339, UTC). Leave as written.",
    `published_at: "${o.publishedAt}"`,
    "# REQUIRED. Whole stars from 1 to 5.",
    o.rating === undefined ? "rating:" : `rating: ${o.rating}`,
    "# REQUIRED. The name the reviewer signs with: first name and last initial, or initials.",
    `author: ${scalar(o.author)}`,
    "# OPTIONAL. The reviewer's headline; remove the # to use it.",
    o.title === undefined ? "# title:" : `title: ${scalar(o.title)}`,
    '# REQUIRED. The review exactly as written: plain text, at most 5000 characters. Replace ""',
    "# with a block, indenting every line of the review by two spaces:",
    "#   text: |",
    "#     First paragraph of the review...",
    o.text === undefined ? 'text: ""' : `text: ${scalar(o.text)}`,
    "source:",
    `  # REQUIRED. Where it was posted: ${SOURCE_PLATFORMS.join(", ")} (direct: sent to the practice).`,
    o.platform === undefined ? "  platform:" : `  platform: ${o.platform}`,
    "  # OPTIONAL. Link to the original review.",
    "  # url: https://",
    "# REQUIRED. Only verified reviews are published, and readers see how each one was verified.",
    "verification:",
    ...wrapComment(
      `REQUIRED, and a public claim: how you confirmed the reviewer is a patient: ${VERIFICATION_METHODS.join(", ")} (docs/editors.md says what each means). Write it only once you have checked.`,
      "  # ",
      "  # ",
    ),
    o.verifiedBy === undefined ? "  method:" : `  method: ${o.verifiedBy}`,
    "  # REQUIRED. The day you checked; not before date, not in the future.",
    o.verifiedBy === undefined ? "  verified_on:" : `  verified_on: ${o.today}`,
    "# OPTIONAL. Ids from business.yaml. People, services and places named in the text are",
    "# detected anyway, so list only those the text does not name.",
    ...o.hint,
    "# technicians: []",
    "# services: []",
    "# service_areas: []",
    "# OPTIONAL. The practice's public reply: on or after date, not in the future.",
    "# response:",
    `#   date: ${o.today}`,
    "#   text: |",
    "#     Thank you ...",
    "",
  ].join("\n");
}

/**
 * Writes the scaffold and returns its path. Picks `-2`, `-3`, ... when the id is taken, and opens
 * with `wx` so an existing file is never overwritten, even by a concurrent run.
 */
export async function scaffoldReview(o: ReviewNewOptions): Promise<string> {
  const today = utcDate(o.now);
  const date = o.date ?? today;
  const reviewsDir = path.join(o.contentDir, "reviews");
  const dir = path.join(reviewsDir, date.slice(0, 4));
  await mkdir(dir, { recursive: true });
  const taken = await idsInUse(reviewsDir);
  const hint = await catalogueHint(o.contentDir);
  const base = `${date}-${authorSlug(o.author)}`;
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (taken.has(id)) continue;
    const file = path.join(dir, `${id}.yaml`);
    const text = template({
      id,
      date,
      today,
      publishedAt: msToRfc3339(o.now.getTime()),
      author: o.author,
      rating: o.rating,
      title: o.title,
      text: o.text,
      platform: o.platform,
      verifiedBy: o.verifiedBy,
      hint,
    });
    try {
      await writeFile(file, text, { flag: "wx" });
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** Parses the command line; returns the options or the problems, each naming the flag and value. */
export function parseCommandLine(
  argv: string[],
  now: Date,
):
  | {
      author: string;
      rating?: number;
      date?: string;
      title?: string;
      text?: string;
      platform?: Platform;
      verifiedBy?: Method;
    }
  | { errors: string[] } {
  let values: {
    author?: string;
    rating?: string;
    date?: string;
    title?: string;
    text?: string;
    platform?: string;
    "verified-by"?: string;
  };
  try {
    ({ values } = parseArgs({
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
  const errors: string[] = [];
  const author = ReviewFileSchema.shape.author.safeParse(values.author ?? "");
  if (!author.success)
    errors.push(`--author: ${author.error.issues[0]?.message}, got ${quoteValue(values.author ?? "")}`);
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
      errors.push(`--${field}: ${ok.error.issues[0]?.message}, got ${quoteValue(v ?? "")}`);
  }
  for (const field of ["author", "title", "text"] as const) {
    const v = values[field];
    const bad = v === undefined ? undefined : badCharacter(v, { names: field !== "text" });
    if (bad) errors.push(`--${field}: ${bad.message}, got ${quoteValue(v as string)}`);
  }
  const platform = values.platform;
  if (platform !== undefined && !(SOURCE_PLATFORMS as readonly string[]).includes(platform)) {
    errors.push(`--platform: expected one of ${SOURCE_PLATFORMS.join(", ")}, got ${JSON.stringify(platform)}`);
  }
  const by = values["verified-by"];
  const verifiedBy = by === undefined ? undefined : VERIFIED_BY[by];
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

/** The command: returns the exit code so tests can run it in-process with their own clock. */
export async function main(
  argv: string[],
  deps: { contentDir: string; now: Date; out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const args = parseCommandLine(argv, deps.now);
  if ("errors" in args) {
    for (const e of args.errors) deps.err(`review:new: ${e}`);
    deps.err(
      'usage: npm run review:new -- --author "Maria G." [--rating 5] [--date YYYY-MM-DD] [--title "…"] [--text "…"] [--platform google|yelp|facebook|healthgrades|direct] [--verified-by appointment_record|invoice|platform|email]',
    );
    return 2;
  }
  const file = displayPath(await scaffoldReview({ ...args, contentDir: deps.contentDir, now: deps.now }));
  deps.out(`Created ${file}`);
  const complete =
    args.text !== undefined &&
    args.rating !== undefined &&
    args.platform !== undefined &&
    args.verifiedBy !== undefined;
  if (complete) {
    deps.out("");
    const reading = await explainContentFile(deps.contentDir, file, deps.now);
    if ("lines" in reading) for (const line of reading.lines) deps.out(line);
    else deps.out(`(No reading yet: npm run check names what to fix first.)`);
  }
  const missing = [
    args.text === undefined && "paste the review text",
    args.rating === undefined && "set the rating",
    args.platform === undefined && "say where it was posted (source.platform)",
    args.verifiedBy === undefined && "say how you verified it (verification.method, verified_on)",
  ];
  const todo = missing.filter(Boolean).join(", ");
  deps.out("");
  deps.out("Next steps:");
  deps.out(`  1. Edit ${file}: ${todo ? `${todo}; ` : ""}check every field.`);
  deps.out("  2. npm run check   (names the file and field of anything still wrong)");
  deps.out(`  3. npm run check -- --explain ${file}   (the machine's reading; confirm or correct it with aspects:)`);
  deps.out(`  4. git add ${file} && git commit -m ${JSON.stringify(`Add review by ${args.author}`)}`);
  return 0;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2), {
    contentDir: loadConfig().CONTENT_DIR,
    now: new Date(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
