import { statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { buildRecords } from "../src/content/dataset.ts";
import { type ReviewRecord, SENTIMENTS } from "../src/content/records.ts";
import { type Annotator, createAnnotator, type Reading } from "../src/insights/annotate.ts";
import {
  type AgreementReport,
  type EvalReport,
  editorAgreement,
  evaluate,
  type LabelledItem,
  parseLabelled,
  withInterval,
} from "../src/insights/evaluate.ts";
import type { LearnedModel } from "../src/insights/learned.ts";
import { createAnalyzer } from "../src/insights/nlp.ts";
import { DEDUP_JACCARD, deduplicate, type OverlapIndex, overlapIndex } from "../src/insights/overlap.ts";
import { secondReader } from "../src/insights/second-reading.ts";
import { TRAIN_DEFAULTS, trainOn } from "../src/insights/training.ts";
import { loadContent } from "../src/io/content-dir.ts";
import { loadInsightsContent } from "../src/io/insights-dir.ts";
import { runReportingContentErrors } from "./editor-errors.ts";
import { HELD_OUT, readSets, SETS, trainingFiles, VALIDATION_ONLY } from "./train-insights.ts";

/**
 * `npm run eval:insights [-- --file PATH]... [--all] [--worst N] [--reading both|rules|model] [--cross-validate]`
 *
 * Measures the aspect annotation of CONTENT_DIR's insights content against labelled sentences and
 * whole reviews (default: the held-out sets, then the development sets; `--all` adds the training
 * sets) and prints accuracy, macro-F1, per-aspect detection precision and recall, the share of items
 * with every label right, the polar aspects the gold lacks, the share of the sentences the site may
 * quote that the gold supports (quotes.ts: the aspect in the gold, on the quote's side), the
 * confusion matrix, the N (default 10) worst misreads and the first N quotes the gold does not
 * support; then how often the machine agrees with the `aspects:` labels editors confirmed in
 * CONTENT_DIR's reviews. Each set's first lines compare the three readings: the rules
 * alone, the learned models alone and both (the default, what the build does); every figure has its
 * 95 % Wilson interval.
 *
 * A set training does not read is first de-duplicated: its items within word-Jaccard 0.5 of a text
 * training reads now (the training sets, and the reviews editors labelled) are dropped and counted,
 * and the figures are of what is left, with the chosen reading's figures before de-duplication
 * beside them (src/insights/overlap.ts).
 *
 * A set with a second, independent labelling (`second-reading/<name>` beside it) gets two more
 * rows: the second reader's labels measured against the set's gold, and the chosen reading
 * measured against the second reader's labels, on the same items (src/insights/second-reading.ts).
 *
 * `--cross-validate` measures the learned models on text they did not learn from: for each set
 * training reads, the clause models are trained on all the others and read on that one (without the
 * review model, whose five folds would make it six trainings a set). Every set was written
 * by the same language model (test/fixtures/insights-eval/README.md), so this is a figure for text
 * the model did not learn, not for a new author's wording. Targets and measured figures are in
 * docs/insights.md.
 */
const DEFAULT_FILES = [...HELD_OUT, ...VALIDATION_ONLY].map((f) => `${SETS}/${f}`);
const READINGS: readonly Reading[] = ["rules", "model", "both"];

/** One reading's headline figures on a set, each with its 95 % interval. */
function row(label: string, x: EvalReport): string {
  const { correct, tp, fp, fn } = x.counts;
  return [
    `  ${label} polarity accuracy ${withInterval(correct, x.matched)}`,
    `aspect recall ${withInterval(tp, tp + fn)}`,
    `precision ${withInterval(tp, tp + fp)}`,
    `every label right ${withInterval(x.exact, x.items)}`,
    `spurious polar ${x.spuriousPolar}`,
    x.quotes.shown === 0 ? "no quotes" : `quotes right ${withInterval(x.quotes.right, x.quotes.shown)}`,
  ].join("   ");
}

function compare(reports: Map<Reading, EvalReport>): string {
  return READINGS.map((r) => `${row(r.padEnd(6), reports.get(r) as EvalReport)}\n`).join("");
}

const f3 = (x: number) => x.toFixed(3);

function print(file: string, r: EvalReport): string {
  const lines = [
    `${file}: ${r.items} items, ${r.matched} gold aspects found`,
    `  polarity accuracy (found aspects) ${f3(r.accuracy)}   macro-F1 ${f3(r.macroF1)}   strict accuracy ${withInterval(r.counts.correct, r.counts.goldPairs)}`,
    `  aspect detection precision ${f3(r.detectionPrecision)}   recall ${f3(r.detectionRecall)}   polar aspects the gold lacks ${r.spuriousPolar}   every label right ${withInterval(r.exact, r.items)}`,
    "",
    "  aspect        precision  recall    tp   fp   fn",
    ...r.detection.map(
      (d) =>
        `  ${d.id.padEnd(13)} ${f3(d.precision).padStart(9)} ${f3(d.recall).padStart(7)} ${String(d.tp).padStart(5)} ${String(d.fp).padStart(4)} ${String(d.fn).padStart(4)}`,
    ),
    "",
    "  confusion (rows gold, columns predicted)",
    `  ${"".padEnd(10)}${SENTIMENTS.map((s) => s.padStart(10)).join("")}`,
    ...SENTIMENTS.map(
      (g) => `  ${g.padEnd(10)}${SENTIMENTS.map((p) => String(r.confusion[g][p]).padStart(10)).join("")}`,
    ),
    "",
    "  worst misreads",
    ...r.worst.map((m) => `  line ${m.line}: gold ${m.gold}; read ${m.predicted}\n      ${m.text}`),
    "",
    `  quotes the gold does not support (${r.quotes.shown - r.quotes.right} of ${r.quotes.shown} the site may quote)`,
    ...r.wrongQuotes.map((q) => `  line ${q.line}: quoted as ${q.shown}; gold ${q.gold}\n      ${q.quote}`),
  ];
  return `${lines.join("\n")}\n`;
}

function printAgreement(r: AgreementReport, worst: number): string {
  const lines = [
    `editor labels (aspects: in ${r.reviews} review files): ${r.labels} labels`,
    `  machine agrees ${r.agreed} of ${r.labels} (${f3(r.agreement)}); labelled aspects it missed ${r.missed}; aspects it adds ${r.extra}`,
    ...r.differences.slice(0, worst).map((d) => `  ${d}`),
  ];
  return `${lines.join("\n")}\n`;
}

async function crossValidate(rules: Annotator, ids: readonly string[], annotatorFor: (m: LearnedModel) => Annotator) {
  const sets = await readSets(await trainingFiles(), ids);
  const lines = ["cross-validation: each set read by a model trained on all the others"];
  let [acc, rec, prec, n] = [0, 0, 0, 0];
  for (const held of sets) {
    const model = trainOn(
      sets.filter((s) => s !== held),
      rules,
      ids,
      TRAIN_DEFAULTS,
    );
    const r = evaluate(held.items, annotatorFor(model), ids, 0);
    lines.push(
      `  ${held.name.padEnd(16)} polarity accuracy ${f3(r.accuracy)}   aspect recall ${f3(r.detectionRecall)}   precision ${f3(r.detectionPrecision)}`,
    );
    acc += r.accuracy;
    rec += r.detectionRecall;
    prec += r.detectionPrecision;
    n++;
  }
  lines.push(
    `  ${"mean".padEnd(16)} polarity accuracy ${f3(acc / n)}   aspect recall ${f3(rec / n)}   precision ${f3(prec / n)}`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The second, independent labelling of `file` (`second-reading/<name>` beside it;
 * docs/insights-rounds.md, "Two readers"), paired with its items, when there is one.
 */
async function secondReading(file: string, all: readonly LabelledItem[], ids: readonly string[]) {
  const path2 = path.join(path.dirname(file), "second-reading", path.basename(file));
  if (!statSync(path2, { throwIfNoEntry: false })?.isFile()) return undefined;
  const items = parseLabelled(await readFile(path2, "utf8"), path2, ids);
  return { items, reader: secondReader(all, items, path2) };
}

// `npm run eval:insights | head`: a reader that stops reading ends the report, not in a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(0);
});

const USAGE =
  "usage: npm run eval:insights [-- --file PATH]... [--all] [--worst N] [--reading rules|model|both] [--cross-validate]";

/** The options, or a one-line refusal naming the option and its value (exit 2, with the usage). */
function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      file: { type: "string", multiple: true },
      worst: { type: "string", default: "10" },
      reading: { type: "string", default: "both" },
      "cross-validate": { type: "boolean", default: false },
      all: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const worst = Number(values.worst);
  if (!Number.isInteger(worst) || worst < 0)
    throw new Error(`--worst: expected a whole number, got ${JSON.stringify(values.worst)}`);
  // A mistyped path is the caller's to fix, said before the models load rather than as a stack trace.
  for (const file of values.file ?? [])
    if (!statSync(file, { throwIfNoEntry: false })?.isFile())
      throw new Error(`--file: no such file, got ${JSON.stringify(file)}`);
  const reading = values.reading as Reading;
  if (!READINGS.includes(reading))
    throw new Error(`--reading: expected one of ${READINGS.join(", ")}, got ${JSON.stringify(values.reading)}`);
  return { ...values, worst, reading };
}

async function main(): Promise<number> {
  let values: ReturnType<typeof options>;
  try {
    values = options(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`eval:insights: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { worst, reading } = values;
  const dir = loadConfig().CONTENT_DIR;
  const content = await loadContent(dir, { now: new Date() });
  const insights = await loadInsightsContent(
    dir,
    content.reviews.map((r) => r.id),
  );
  const analyzer = createAnalyzer();
  const annotators = new Map(
    READINGS.map((r) => [r, createAnnotator(insights, content.business, analyzer, { reading: r })] as const),
  );
  const annotator = annotators.get(reading) as Annotator;
  const ids = insights.aspects.map((a) => a.id);
  if (values["cross-validate"]) {
    const annotatorFor = (model: LearnedModel) => createAnnotator({ ...insights, model }, content.business, analyzer);
    // The "rules" reading ignores the content's model: what training reads (train-insights.ts rulesOf).
    process.stdout.write(await crossValidate(annotators.get("rules") as Annotator, ids, annotatorFor));
    return 0;
  }
  // The held-out sets, then the sets written for tuning; the training sets only when asked for
  // (`--all`, or by name): each reads as the model was trained on it.
  const training = await trainingFiles();
  const rest = training.filter((f) => values.all || !path.basename(f).startsWith("train-"));
  const files = values.file ?? [...DEFAULT_FILES, ...rest];
  // What the content's model read, as its `trained_on` names it (a model trained with `--exclude` did
  // not read every set training reads); without a model, what training would read.
  const listed = insights.model && new Set(insights.model.trained_on);
  const everySet = (await readdir(SETS)).filter((n) => n.endsWith(".txt")).map((n) => path.join(SETS, n));
  const read = listed ? everySet.filter((f) => listed.has(path.basename(f))) : training;
  const trainedOn = new Set(read.map((f) => path.resolve(f)));
  const records = buildRecords(content, "http://localhost/");
  const labelled = content.reviews
    .filter((r) => r.aspects !== undefined)
    .map((r) => ({ review: records.find((x) => x.id === r.id) as ReviewRecord, labels: r.aspects ?? {} }));
  // Everything labelled that training may read, at run time: the training sets as they are now
  // and the reviews editors labelled.
  let overlap: OverlapIndex | undefined;
  const trainingTexts = async () => {
    overlap ??= overlapIndex([
      ...(await readSets(read, ids)).flatMap((set) => set.items.map((i) => i.text)),
      ...labelled.flatMap(({ review }) => [review.title ?? "", review.text]),
    ]);
    return overlap;
  };
  // Without a model the three readings are one: only the chosen one is measured.
  const measured = insights.model ? READINGS : [reading];
  const measure = (items: readonly LabelledItem[]) =>
    new Map(
      measured.map(
        (r) => [r, evaluate(items, annotators.get(r) as Annotator, ids, r === reading ? worst : 0)] as const,
      ),
    );
  for (const file of files) {
    const all = parseLabelled(await readFile(path.resolve(file), "utf8"), file, ids);
    const trained = trainedOn.has(path.resolve(file));
    const heldOut = HELD_OUT.includes(path.basename(file));
    process.stdout.write(
      `${file} (${heldOut ? "held out: never trained or tuned on" : trained ? "trained on" : "not a set the models were trained on"})\n`,
    );
    let items = all;
    if (!trained) {
      // A set training never read is measured without its near-duplicates of what training read.
      const index = await trainingTexts();
      const { kept, dropped } = deduplicate(all, index);
      items = kept;
      process.stdout.write(
        `  de-duplicated: ${all.length} items, ${dropped.length} dropped (word-Jaccard >= ${DEDUP_JACCARD} with one of the ${index.size} texts training reads), ${kept.length} kept\n`,
      );
    }
    const reports = measure(items);
    if (insights.model) process.stdout.write(compare(reports));
    if (items !== all) {
      const before = evaluate(all, annotator, ids, 0);
      process.stdout.write(`${row(`${reading} before de-duplication:`, before)}\n`);
    }
    const second = await secondReading(file, all, ids);
    if (second) {
      // The same figures for a second reader's labels, and for the build's reading against them.
      process.stdout.write(`${row("second reader:", evaluate(items, second.reader, ids, 0))}\n`);
      const kept = new Set(items);
      const theirs = second.items.filter((_, i) => kept.has(all[i] as LabelledItem));
      process.stdout.write(`${row(`${reading} against the second reader:`, evaluate(theirs, annotator, ids, 0))}\n`);
    }
    process.stdout.write(print(file, reports.get(reading) as EvalReport));
  }
  process.stdout.write(printAgreement(editorAgreement(labelled, annotator), worst));
  return 0;
}

process.exitCode = await runReportingContentErrors("eval:insights", main);
