import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { buildRecords } from "../src/content/dataset.ts";
import { type ReviewRecord, SENTIMENTS } from "../src/content/records.ts";
import { createAnnotator } from "../src/insights/annotate.ts";
import {
  type AgreementReport,
  type EvalReport,
  editorAgreement,
  evaluate,
  parseLabelled,
} from "../src/insights/evaluate.ts";
import { createAnalyzer } from "../src/insights/nlp.ts";
import { loadContent } from "../src/io/content-dir.ts";
import { loadInsightsContent } from "../src/io/insights-dir.ts";

/**
 * `npm run eval:insights [-- --file PATH]... [--worst N]`
 *
 * Measures the aspect annotation of CONTENT_DIR's insights content against labelled sentences
 * (default: every set, the held-out set first) and prints accuracy, macro-F1, per-aspect detection
 * precision and recall, the confusion matrix and the N (default 10) worst misreads; then how often
 * the machine agrees with the `aspects:` labels editors confirmed in CONTENT_DIR's reviews. Targets
 * and measured figures are in docs/insights.md.
 */
const SETS = "test/fixtures/insights-eval";
/** The held-out set first: it is the figure that says how the reading does on unseen text. */
const DEFAULT_FILES = ["heldout-3.txt", "dev-2.txt", "dev.txt", "heldout.txt", "heldout-2.txt"].map(
  (f) => `${SETS}/${f}`,
);

const f3 = (x: number) => x.toFixed(3);

function print(file: string, r: EvalReport): string {
  const lines = [
    `${file}: ${r.items} sentences, ${r.matched} gold aspects found`,
    `  polarity accuracy (found aspects) ${f3(r.accuracy)}   macro-F1 ${f3(r.macroF1)}   strict accuracy ${f3(r.strictAccuracy)}`,
    `  aspect detection precision ${f3(r.detectionPrecision)}   recall ${f3(r.detectionRecall)}`,
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

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { file: { type: "string", multiple: true }, worst: { type: "string", default: "10" } },
  });
  const files = values.file ?? DEFAULT_FILES;
  const worst = Number(values.worst);
  if (!Number.isInteger(worst) || worst < 0)
    throw new Error(`--worst: expected a whole number, got ${JSON.stringify(values.worst)}`);
  const dir = loadConfig().CONTENT_DIR;
  const content = await loadContent(dir, { now: new Date() });
  const insights = await loadInsightsContent(
    dir,
    content.reviews.map((r) => r.id),
  );
  const annotator = createAnnotator(insights, content.business, createAnalyzer());
  const ids = insights.aspects.map((a) => a.id);
  for (const file of files) {
    const items = parseLabelled(await readFile(path.resolve(file), "utf8"), file, ids);
    process.stdout.write(print(file, evaluate(items, annotator, ids, worst)));
  }
  const records = buildRecords(content, "http://localhost/");
  const labelled = content.reviews
    .filter((r) => r.aspects !== undefined)
    .map((r) => ({ review: records.find((x) => x.id === r.id) as ReviewRecord, labels: r.aspects ?? {} }));
  process.stdout.write(printAgreement(editorAgreement(labelled, annotator), worst));
  return 0;
}

process.exitCode = await main();
