import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import jsYaml from "js-yaml";
import { ContentError, formatIssues } from "../../src/content/errors.ts";
import { type BusinessFile, BusinessFileSchema } from "../../src/content/schema.ts";
import { displayPath } from "../../src/io/content-dir.ts";
import { UsageError } from "./args.ts";
import { firstDay, type GenerateOptions, generateReviews } from "./content.ts";
import { createFaqCollector } from "./faq.ts";

export interface WriteOptions extends GenerateOptions {
  /** Folder to write. */
  out: string;
  /** The business.yaml to copy; the insights files (`INSIGHT_COPIES`) come from the insights/ beside it. */
  business: string;
  /** Replace business.yaml, reviews/ and insights/ in a folder that is not empty. */
  force: boolean;
}

export interface WriteSummary {
  reviews: number;
  firstDay: string;
  until: string;
  /** Files written under `out`, business and insights included. */
  files: number;
}

/** Files in flight at once: enough to keep the disk busy, far below any descriptor limit. */
const CONCURRENCY = 32;
/**
 * The practice's own reading of reviews, so a generated site is read as the real one is: without
 * the lexicon and the learned models, every benchmark build timed the rules alone.
 */
const INSIGHT_COPIES = ["aspects.yaml", "sentiment.yaml", "model.json", "summary.md"];

/** Generates a content folder at `options.out`. The only part of the generator that touches disk. */
export async function writeContent(options: WriteOptions): Promise<WriteSummary> {
  const business = await readBusiness(options.business);
  const sourceDir = path.dirname(options.business);
  const out = path.resolve(options.out);
  if (out === sourceDir) {
    throw new UsageError(
      `--out must not be the folder --business is read from, got ${JSON.stringify(options.out)}; that would overwrite real content`,
    );
  }
  await prepareOut(out, options.force);

  let files = 0;
  await copyFile(options.business, path.join(out, "business.yaml"));
  files++;
  const insights = path.join(out, "insights");
  await mkdir(insights, { recursive: true });
  for (const name of INSIGHT_COPIES) {
    const copied = await copyFile(path.join(sourceDir, "insights", name), path.join(insights, name)).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT") return false;
        throw err;
      },
    );
    if (copied) files++;
  }

  const faq = createFaqCollector();
  const reviews = generateReviews(business, options);
  const yearDirs = new Map<string, Promise<unknown>>();
  // Workers pull from one shared generator, so generation stays sequential and deterministic
  // while up to CONCURRENCY writes wait on the disk.
  const worker = async () => {
    for (let next = reviews.next(); !next.done; next = reviews.next()) {
      const review = next.value;
      faq.add(review);
      const dir = path.dirname(path.join(out, review.path));
      let made = yearDirs.get(dir);
      if (!made) {
        made = mkdir(dir, { recursive: true });
        yearDirs.set(dir, made);
      }
      await made;
      await writeFile(path.join(out, review.path), review.yaml);
      files++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await writeFile(path.join(insights, "faq.yaml"), faq.render());
  files++;
  return { reviews: options.reviews, firstDay: firstDay(options.until), until: options.until, files };
}

async function readBusiness(file: string): Promise<BusinessFile> {
  const shown = displayPath(file);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`--business cannot read ${JSON.stringify(shown)} (${(err as NodeJS.ErrnoException).code})`);
  }
  let input: unknown;
  try {
    input = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
  } catch (err) {
    throw new ContentError([`${shown}: (file): invalid YAML: ${(err as Error).message.split("\n")[0]}`]);
  }
  const parsed = BusinessFileSchema.safeParse(input);
  if (!parsed.success) throw new ContentError(formatIssues(shown, parsed.error.issues, input));
  return parsed.data;
}

async function prepareOut(out: string, force: boolean): Promise<void> {
  const entries = await readdir(out).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    if (err.code === "ENOTDIR") throw new UsageError(`--out must be a folder, got the file ${JSON.stringify(out)}`);
    throw err;
  });
  if (entries.length > 0 && !force) {
    throw new UsageError(
      `--out must be an empty or new folder, got ${JSON.stringify(out)} with ${entries.length} entries; pass --force to replace its business.yaml, reviews/ and insights/`,
    );
  }
  // Stale reviews from an earlier, larger run would otherwise mix into this set.
  await rm(path.join(out, "reviews"), { recursive: true, force: true });
  await rm(path.join(out, "insights"), { recursive: true, force: true });
  await mkdir(out, { recursive: true });
}
