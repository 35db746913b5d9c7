import { type FileHandle, mkdir, open, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import jsYaml from "js-yaml";
import { loadConfig } from "../src/config.ts";
import { quoteValue } from "../src/content/characters.ts";
import { msToRfc3339, utcDate } from "../src/content/dates.ts";
import { BusinessFileSchema } from "../src/content/schema.ts";
import { slugOf } from "../src/content/slug.ts";
import { contentFolderProblem, displayPath } from "../src/io/content-dir.ts";
import { explainContentFile } from "../src/io/explain-file.ts";
import { loggedIds } from "../src/io/log-check.ts";
import { runReportingContentErrors } from "./editor-errors.ts";
import { parseCommandLine, type ReviewNewArgs, USAGE } from "./review-new/args.ts";
import { scaffoldText, wrapComment } from "./review-new/template.ts";

/**
 * `npm run review:new -- --author "Maria G." [--rating 5] [--date YYYY-MM-DD] [--title "…"] [--text "…"]
 *   [--platform google|yelp|facebook|healthgrades|direct] [--verified-by appointment_record|invoice|platform|email]`
 *
 * Scaffolds `content/reviews/<year>/<date>-<author-slug>.yaml` with every required field present
 * and commented, so adding a review is one file and one commit. The text is left empty (and the
 * rating too unless given) on purpose: the build refuses the file until an editor fills them, so a
 * half-done scaffold can never be published. Given `--text`, `--rating`, `--platform` and
 * `--verified-by`, the file is complete and the machine's reading of it is printed sentence by
 * sentence (as `npm run check -- --explain`), so the editor can confirm or correct it with
 * `aspects:` before committing.
 *
 * It never states a verification or a platform on its own: "verified by …" is a public claim, so
 * `verification.method` and `source.platform` are written only as told (`--verified-by`,
 * `--platform`) and otherwise left empty for the editor, and `npm run check` refuses the file
 * until they are filled in.
 */

export interface ReviewNewOptions extends ReviewNewArgs {
  contentDir: string;
  now: Date;
  /** Where the review logs are (BASE_URL, LOG_DIR, DATA_DIR), whose ids are taken too. */
  env: NodeJS.ProcessEnv;
}

/**
 * `José Núñez` -> `jose-nunez`, `Søren O'Brien` -> `soren-obrien`: the slug becomes part of the
 * review id, so at most 40 characters are kept, never ending on a hyphen.
 */
export function authorSlug(author: string): string {
  return slugOf(author).slice(0, 40).replace(/-+$/, "") || "review";
}

/**
 * Every review id in use, in any year folder or in a review log (a withdrawn review's file may be
 * deleted, its id never is): ids are unique across the whole site and its history.
 */
async function idsInUse(reviewsDir: string, env: NodeJS.ProcessEnv): Promise<Set<string>> {
  const ids = await loggedIds(env);
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
  const taken = await idsInUse(reviewsDir, o.env);
  const hint = await catalogueHint(o.contentDir);
  const base = `${date}-${authorSlug(o.author)}`;
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (taken.has(id)) continue;
    const file = path.join(dir, `${id}.yaml`);
    const text = scaffoldText({
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
    let handle: FileHandle;
    try {
      handle = await open(file, "wx");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    try {
      await handle.writeFile(text);
      await handle.close();
      return file;
    } catch (err) {
      // The file is this run's own (wx made it): a write cut short (a full disk) must not leave half a review.
      await handle.close().catch(() => {});
      await rm(file, { force: true });
      throw err;
    }
  }
}

/**
 * `s` as one word of a POSIX shell command, for the commands printed to be pasted: in single quotes
 * unless plain, since in double quotes a reviewer's name holding `$(…)` or a backtick would run.
 */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** What the disk's refusals mean for the path they name. */
const DISK_REFUSALS: Readonly<Record<string, string>> = {
  EEXIST: "is a file, not a folder",
  ENOTDIR: "is in a file, not a folder",
  EACCES: "may not be written to (permission denied)",
  EPERM: "may not be written to (permission denied)",
  EROFS: "is on a read-only disk",
  ENOSPC: "is on a full disk",
  EFBIG: "may not hold a file this large (a file size limit)",
  EDQUOT: "is on a disk whose quota is used up",
};

/** The command: returns the exit code so tests can run it in-process with their own clock. */
export async function main(
  argv: string[],
  deps: {
    contentDir: string;
    now: Date;
    out: (line: string) => void;
    err: (line: string) => void;
    env?: NodeJS.ProcessEnv;
  },
): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    deps.out(USAGE);
    return 0;
  }
  const args = parseCommandLine(argv, deps.now);
  if ("errors" in args) {
    for (const e of args.errors) deps.err(`review:new: ${e}`);
    deps.err(USAGE);
    return 2;
  }
  // A mistyped CONTENT_DIR would get a new folder of its own, which no check or build reads.
  const notContent = contentFolderProblem(deps.contentDir, { business: true });
  if (notContent !== undefined) {
    deps.err(`review:new: ${notContent}`);
    return 1;
  }
  let written: string;
  try {
    written = await scaffoldReview({
      ...args,
      contentDir: deps.contentDir,
      now: deps.now,
      env: deps.env ?? process.env,
    });
  } catch (err) {
    // The disk refused (a file where the year folder goes, no permission): the editor's to fix, in words.
    const { code, path: where } = err as NodeJS.ErrnoException;
    if (typeof code !== "string") throw err;
    const what = where === undefined ? "the review's folder" : quoteValue(displayPath(where));
    deps.err(
      `review:new: could not write the new review: ${what} ${DISK_REFUSALS[code] ?? "could not be written"} (${code}) — content/reviews/<year>/ must be folders you can write to; nothing was written`,
    );
    return 1;
  }
  const file = displayPath(written);
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
  deps.out(
    `  3. npm run check -- --explain ${shellWord(file)}   (the machine's reading; confirm or correct it with aspects:)`,
  );
  deps.out(`  4. git add ${shellWord(file)} && git commit -m ${shellWord(`Add review by ${args.author}`)}`);
  return 0;
}

if (import.meta.main) {
  // A malformed variable is the editor's to fix: its message, not a stack trace.
  process.exitCode = await runReportingContentErrors("review:new", () =>
    main(process.argv.slice(2), {
      contentDir: loadConfig().CONTENT_DIR,
      now: new Date(),
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    }),
  );
}
