import { readFile } from "node:fs/promises";
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
  parseLabelled,
} from "../src/insights/evaluate.ts";
import type { LearnedModel } from "../src/insights/learned.ts";
import { createAnalyzer } from "../src/insights/nlp.ts";
import { TRAIN_DEFAULTS, trainOn } from "../src/insights/training.ts";
import { loadContent } from "../src/io/content-dir.ts";
import { loadInsightsContent } from "../src/io/insights-dir.ts";
import { HELD_OUT, readSets, SETS, trainingFiles } from "./train-insights.ts";

/**
 * `npm run eval:insights [-- --file PATH]... [--all] [--worst N] [--reading both|rules|model] [--cross-validate]`
 *
 * Measures the aspect annotation of CONTENT_DIR's insights content against labelled sentences
 * (default: the held-out set, then the development sets; `--all` adds the training sets) and prints accuracy, macro-F1, per-aspect
 * detection precision and recall, the confusion matrix and the N (default 10) worst misreads; then
 * how often the machine agrees with the `aspects:` labels editors confirmed in CONTENT_DIR's
 * reviews. Each set's first line compares the three readings: the rules alone, the learned models
 * alone and both (the default, what the build does).
 *
 * `--cross-validate` measures the learned models on text they did not learn from: for each set
 * training reads, a model is trained on all the others and read on that one (every set is by
 * another writer, so this is the figure for a new writer's wording). Targets and measured figures
 * are in docs/insights.md.
 */
const DEFAULT_FILES = [...HELD_OUT.map((f) => `${SETS}/${f}`)];
const READINGS: readonly Reading[] = ["rules", "model", "both"];

function compare(file: string, reports: Map<Reading, EvalReport>, trainedOn: ReadonlySet<string>): string {
  const row = (r: Reading) => {
    const x = reports.get(r) as EvalReport;
    return `  ${r.padEnd(6)} polarity accuracy ${f3(x.accuracy)}   aspect recall ${f3(x.detectionRecall)}   precision ${f3(x.detectionPrecision)}   strict ${f3(x.strictAccuracy)}   exact ${x.exact}/${x.items}   spurious polar ${x.spuriousPolar}`;
  };
  const trained = HELD_OUT.includes(path.basename(file))
    ? "held out: never trained or tuned on"
    : trainedOn.has(path.resolve(file))
      ? "trained on"
      : "not a set the models were trained on";
  return `${file} (${trained})\n${READINGS.map(row).join("\n")}\n`;
}

const f3 = (x: number) => x.toFixed(3);

function print(file: string, r: EvalReport): string {
  const lines = [
    `${file}: ${r.items} items, ${r.matched} gold aspects found`,
    `  polarity accuracy (found aspects) ${f3(r.accuracy)}   macro-F1 ${f3(r.macroF1)}   strict accuracy ${f3(r.strictAccuracy)}`,
    `  aspect detection precision ${f3(r.detectionPrecision)}   recall ${f3(r.detectionRecall)}`,
    `  items read exactly (every label right, none missing or added) ${r.exact} of ${r.items}; polar aspects the gold lacks ${r.spuriousPolar}`,
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

// `npm run eval:insights | head`: a reader that stops reading ends the report, not in a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(0);
});

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      file: { type: "string", multiple: true },
      worst: { type: "string", default: "10" },
      reading: { type: "string", default: "both" },
      "cross-validate": { type: "boolean", default: false },
      all: { type: "boolean", default: false },
    },
  });
  const worst = Number(values.worst);
  if (!Number.isInteger(worst) || worst < 0)
    throw new Error(`--worst: expected a whole number, got ${JSON.stringify(values.worst)}`);
  const reading = values.reading as Reading;
  if (!READINGS.includes(reading))
    throw new Error(`--reading: expected one of ${READINGS.join(", ")}, got ${JSON.stringify(values.reading)}`);
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
  // The held-out set, then the sets written for tuning; the 35 training sets only when asked for
  // (`--all`, or by name): each reads as the model was trained on it.
  const training = await trainingFiles();
  const rest = training.filter((f) => values.all || !path.basename(f).startsWith("train-"));
  const files = values.file ?? [...DEFAULT_FILES, ...rest];
  const trainedOn = new Set(training.map((f) => path.resolve(f)));
  // Without a model the three readings are one: only the chosen one is measured.
  const measured = insights.model ? READINGS : [reading];
  for (const file of files) {
    const items = parseLabelled(await readFile(path.resolve(file), "utf8"), file, ids);
    const reports = new Map(
      measured.map(
        (r) => [r, evaluate(items, annotators.get(r) as Annotator, ids, r === reading ? worst : 0)] as const,
      ),
    );
    if (insights.model) process.stdout.write(compare(file, reports, trainedOn));
    process.stdout.write(print(file, reports.get(reading) as EvalReport));
  }
  const records = buildRecords(content, "http://localhost/");
  const labelled = content.reviews
    .filter((r) => r.aspects !== undefined)
    .map((r) => ({ review: records.find((x) => x.id === r.id) as ReviewRecord, labels: r.aspects ?? {} }));
  process.stdout.write(printAgreement(editorAgreement(labelled, annotator), worst));
  return 0;
}

process.exitCode = await main();
