import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { SENTIMENTS } from "../src/content/records.ts";
import { createAnnotator } from "../src/insights/annotate.ts";
import { type EvalReport, evaluate, parseLabelled } from "../src/insights/evaluate.ts";
import { createAnalyzer } from "../src/insights/nlp.ts";
import { loadContent } from "../src/io/content-dir.ts";
import { loadInsightsContent } from "../src/io/insights-dir.ts";

/**
 * `npm run eval:insights [-- --file PATH]... [--worst N]`
 *
 * Measures the aspect annotation of CONTENT_DIR's insights content against labelled sentences
 * (default: the development set) and prints accuracy, macro-F1, per-aspect detection precision and
 * recall, the confusion matrix and the N (default 10) worst misreads. Targets and measured figures are in
 * docs/insights.md.
 */
const DEFAULT_FILE = "test/fixtures/insights-eval/dev.txt";

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

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { file: { type: "string", multiple: true }, worst: { type: "string", default: "10" } },
  });
  const files = values.file ?? [DEFAULT_FILE];
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
  return 0;
}

process.exitCode = await main();
