import path from "node:path";
import { buildRecords } from "../content/dataset.ts";
import { problem } from "../content/errors.ts";
import { createAnnotator } from "../insights/annotate.ts";
import { explainReview } from "../insights/explain.ts";
import { createAnalyzer } from "../insights/nlp.ts";
import { checkContentDir } from "./content-check.ts";

/**
 * `--explain <file>`: the machine's reading of one review file of `dir`, after the same checks as
 * the build. Returns the lines to print, or the problems that stop it (the content's, or a file that
 * is not one of its reviews).
 */
export async function explainContentFile(
  dir: string,
  file: string,
  now: Date,
): Promise<{ lines: string[] } | { problems: string[] }> {
  const report = await checkContentDir(dir, { now, unfinished: "error" });
  if (!report.ok) return { problems: report.problems };
  const want = path.resolve(file);
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
