import { existsSync } from "node:fs";
import path from "node:path";
import { fileLabel } from "../content/characters.ts";
import { buildRecords } from "../content/dataset.ts";
import { problem } from "../content/errors.ts";
import { createAnnotator } from "../insights/annotate.ts";
import { explainReview } from "../insights/explain.ts";
import { createAnalyzer } from "../insights/nlp.ts";
import { checkContentDir } from "./content-check.ts";

/**
 * `--explain <file>`: the machine's reading of one review file of `dir`, after the same checks as
 * the build, but for the other reviews still scaffolds (text empty). Returns the lines to print, or
 * the problems that stop it (the content's, the file's own when it is a scaffold, or a file that is
 * not one of its reviews).
 */
export async function explainContentFile(
  dir: string,
  file: string,
  now: Date,
): Promise<{ lines: string[] } | { problems: string[] }> {
  // A misspelt name is told so first, not as "not a review file", nor behind other files' problems.
  if (!existsSync(file)) {
    const why = "does not exist — give the path of a review file, content/reviews/<year>/<id>.yaml";
    return { problems: [problem(file, "(file)", why, file)] };
  }
  // Another review still a scaffold has no bearing on this one's reading: left out, as npm start does.
  const report = await checkContentDir(dir, { now, unfinished: "skip" });
  if (!report.ok) return { problems: report.problems };
  const want = path.resolve(file);
  const scaffold = report.skipped.find((f) => path.resolve(f) === want);
  if (scaffold !== undefined) {
    const full = await checkContentDir(dir, { now, unfinished: "error" });
    const own = `${fileLabel(scaffold)}: `;
    return { problems: full.ok ? [] : full.problems.filter((p) => p.startsWith(own)) };
  }
  const entry = report.content.reviews.find((r) => path.resolve(r.file) === want);
  if (!entry) {
    // A withdrawn review is a review file all the same: say why it has no reading, not that it is none.
    // No advice to remove the lines: that publishes it again, in the public log too (docs/editors.md).
    const withdrawn = report.content.withdrawn.find((r) => path.resolve(r.file) === want);
    const why = withdrawn
      ? "is withdrawn (its withdrawn: lines), so it is not published and has no reading; removing those lines would publish it again, with a restored entry in the public review log"
      : `not a review file of ${dir} (content/reviews/<year>/<id>.yaml)`;
    return { problems: [problem(file, "(file)", why, file)] };
  }
  // The record, for the practitioners, services and areas the text names, as the build sees them.
  const [record] = buildRecords({ business: report.content.business, reviews: [entry] }, "http://localhost/");
  const annotator = createAnnotator(report.insights, report.content.business, createAnalyzer());
  return { lines: record ? explainReview(annotator, report.insights.aspects, record, entry.aspects) : [] };
}
