import { accessSync, constants, existsSync, statSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import type { Business, Sentiment } from "../src/content/records.ts";
import { type Annotator, createAnnotator } from "../src/insights/annotate.ts";
import { type LabelledItem, parseLabelled } from "../src/insights/evaluate.ts";
import type { LearnedModel } from "../src/insights/learned.ts";
import { createAnalyzer } from "../src/insights/nlp.ts";
import { TRAIN_DEFAULTS, type TrainingSet, trainOn } from "../src/insights/training.ts";
import { validateInsightsContent } from "../src/insights/validate-content.ts";
import { loadContent } from "../src/io/content-dir.ts";
import { readInsightsDir } from "../src/io/insights-dir.ts";
import { runReportingContentErrors } from "./editor-errors.ts";

/**
 * `npm run train:insights [-- --exclude FILE]... [--out PATH]`
 *
 * Trains the learned models (src/insights/learned.ts) on the labelled sentences of
 * test/fixtures/insights-eval and writes them to CONTENT_DIR/insights/model.json (or `--out`). Every
 * set is read except the held-out ones (HELD_OUT), which no training or tuning may see, the
 * validation sets that only measure (VALIDATION_ONLY), and any `--exclude`d file. The same sets
 * give the same bytes: training has no randomness, and a test trains again and compares
 * (test/scripts/train-insights.test.ts).
 */
export const SETS = "test/fixtures/insights-eval";
/** Never trained on: the figure for unseen text (docs/insights.md). */
export const HELD_OUT = [
  "heldout-4.txt",
  "heldout-5.txt",
  "heldout-plain.txt",
  "heldout-messy.txt",
  "heldout-reviews.txt",
  "heldout-reviews-2.txt",
];
/**
 * Validation sets the committed model does not read: options may be chosen on them, for whole reviews
 * and for single sentences, as every other `dev-*.txt` is trained on (docs/insights-rounds.md,
 * twenty-second, twenty-third and twenty-eighth rounds, say which sets these replaced and why).
 */
export const VALIDATION_ONLY = [
  "dev-reviews-4.txt",
  "dev-plain-2.txt",
  "dev-messy-2.txt",
  "dev-reviews-5.txt",
  "dev-reviews-6.txt",
  "dev-reviews-7.txt",
  "dev-plain-3.txt",
  "dev-plain-4.txt",
  "dev-plain-5.txt",
  "dev-messy-3.txt",
  "dev-messy-4.txt",
  "dev-messy-5.txt",
];

/** The sets training reads, in name order. */
export async function trainingFiles(exclude: readonly string[] = [], root = "."): Promise<string[]> {
  const names = (await readdir(path.join(root, SETS))).filter((n) => n.endsWith(".txt")).sort();
  const skip = new Set([...HELD_OUT, ...VALIDATION_ONLY, ...exclude.map((f) => path.basename(f))]);
  return names.filter((n) => !skip.has(n)).map((n) => path.join(root, SETS, n));
}

/**
 * What training needs from the content: the rules alone (the insights content without a model, so
 * a model never learns from an earlier one), how the build reads with a given model (for the review
 * model's folds) and the aspect ids.
 */
export async function rulesOf(contentDir: string): Promise<{
  rules: Annotator;
  readWith: (model: LearnedModel) => Annotator;
  ids: string[];
  business: Business;
  editors: TrainingSet;
}> {
  const raw = await readInsightsDir(contentDir);
  delete raw.files["model.json"];
  delete raw.files["faq.yaml"];
  const insights = validateInsightsContent(raw, new Set());
  const { business, reviews } = await loadContent(contentDir, { now: new Date() });
  const analyzer = createAnalyzer();
  const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
  const readWith = (model: LearnedModel) => createAnnotator({ ...insights, model }, business, analyzer);
  return { rules, readWith, ids: insights.aspects.map((a) => a.id), business, editors: editorSet(reviews) };
}

/**
 * How much an editor's label counts against a written one: it is the only reading of a real review
 * the project has, checked by a person who knows the practice.
 */
export const EDITOR_WEIGHT = 3;

/** The reviews whose `aspects:` an editor confirmed, as whole-review items (in id order). */
export function editorSet(
  reviews: readonly {
    id: string;
    rating: number;
    title?: string | null;
    text: string;
    aspects?: Readonly<Record<string, Sentiment>> | undefined;
  }[],
): TrainingSet {
  const items: LabelledItem[] = reviews
    .filter((r) => r.aspects !== undefined)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r, i) => ({
      line: i + 1,
      rating: r.rating,
      gold: new Map(Object.entries(r.aspects ?? {})),
      text: r.text,
      title: r.title ?? null,
    }));
  return { name: `editor labels in ${items.length} reviews`, items, weight: EDITOR_WEIGHT };
}

export async function readSets(files: readonly string[], ids: readonly string[]) {
  const sets: { name: string; items: LabelledItem[] }[] = [];
  for (const f of files) sets.push({ name: path.basename(f), items: parseLabelled(await readFile(f, "utf8"), f, ids) });
  return sets;
}

/** The model file's text for these sets: what `npm run train:insights` writes. */
export async function trainedModelText(
  contentDir: string,
  exclude: readonly string[] = [],
  root = ".",
): Promise<string> {
  const { rules, readWith, ids, editors } = await rulesOf(contentDir);
  const sets: TrainingSet[] = await readSets(await trainingFiles(exclude, root), ids);
  if (editors.items.length > 0) sets.push(editors);
  return `${JSON.stringify(trainOn(sets, rules, ids, TRAIN_DEFAULTS, readWith))}\n`;
}

const USAGE = "usage: npm run train:insights [-- --exclude FILE]... [--out PATH]";

/**
 * What is wrong with `--exclude` or `--out`, said before the minute and a half of training: a
 * mistyped set name would otherwise be trained on, and an unwritable path lost the model at the end.
 */
async function badArgument({ exclude = [], out }: { exclude?: string[]; out?: string }): Promise<string | undefined> {
  const sets = new Set((await readdir(SETS)).filter((n) => n.endsWith(".txt")));
  const unknown = exclude.find((f) => !sets.has(path.basename(f)));
  if (unknown !== undefined) return `--exclude: not a labelled set of ${SETS}, got ${JSON.stringify(unknown)}`;
  if (out === undefined) return undefined;
  if (statSync(out, { throwIfNoEntry: false })?.isDirectory())
    return `--out: a folder, not a file, got ${JSON.stringify(out)}`;
  if (!statSync(path.dirname(out), { throwIfNoEntry: false })?.isDirectory())
    return `--out: no such folder, got ${JSON.stringify(out)}`;
  try {
    // The file if it is there (it is replaced), else its folder (it is made there).
    accessSync(existsSync(out) ? out : path.dirname(out), constants.W_OK);
  } catch {
    return `--out: this user cannot write it, got ${JSON.stringify(out)}`;
  }
  return undefined;
}

async function main(): Promise<number> {
  let values: { exclude?: string[]; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { exclude: { type: "string", multiple: true }, out: { type: "string" }, help: { type: "boolean" } },
    }));
  } catch (err) {
    process.stderr.write(`train:insights: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const refused = await badArgument(values);
  if (refused) {
    process.stderr.write(`train:insights: ${refused}\n${USAGE}\n`);
    return 2;
  }
  const dir = loadConfig().CONTENT_DIR;
  const text = await trainedModelText(dir, values.exclude ?? []);
  const out = values.out ?? path.join(dir, "insights", "model.json");
  await writeFile(out, text);
  const model = JSON.parse(text) as LearnedModel;
  const editors = model.trained_on.find((s) => s.startsWith("editor labels"));
  const written = model.trained_on.length - 1 - (editors ? 1 : 0);
  process.stdout.write(
    `train:insights: ${written} labelled sets; ${editors ?? "no editor labels in the content"}; ${model.polarity.features.length} polarity and ${model.aspects.features.length} aspect features -> ${out}\n`,
  );
  return 0;
}

if (import.meta.main) process.exitCode = await runReportingContentErrors("train:insights", main);
