import path from "node:path";
import { messageStart } from "../content/errors.ts";
import type { ContentRoot } from "./content-file.ts";

/**
 * Files and folders of the content folder that nothing reads: a review saved beside business.yaml,
 * in a mistyped folder, straight under reviews/ or under a name that does not end in `.yaml` would
 * be left out of the site without a word. Each is a problem saying where it belongs. Names that
 * start with a dot (editors' swap and lock files, .DS_Store) are passed over before they get here.
 */

/** What the top of the content folder holds; anything else is a stray, unless a link read leads into it. */
const CONTENT_ENTRIES: ReadonlySet<string> = new Set(["business.yaml", "reviews", "insights"]);

/**
 * Whether `name`, at the top of the content folder `root`, is read by nothing: not one of its
 * entries, and no link read (`reached`: where each resolved) leads into it.
 */
export function isStray(root: ContentRoot, name: string, reached: readonly (string | undefined)[]): boolean {
  if (CONTENT_ENTRIES.has(name)) return false;
  const at = path.join(root.real, name);
  return !reached.some((r) => r !== undefined && (r === at || r.startsWith(`${at}${path.sep}`)));
}

/** Where in the content folder a stray was found. */
export type StrayPlace = "content" | "reviews" | "year";

/** The problem line for the stray `file` (as messages show it) found in `place`. */
export function strayProblem(file: string, place: StrayPlace, folder: boolean): string {
  const start = `${messageStart(file)}(file): is never read`;
  if (place === "content") {
    return `${start}: content/ holds business.yaml, reviews/ and insights/ only — move a review to content/reviews/<year>/<id>.yaml, and anything else out of content/`;
  }
  if (place === "reviews") {
    return folder
      ? `${start}, as reviews/ holds one folder per year, named as 2026 is — move the reviews in it to the folders of their years`
      : `${start}, as reviews/ holds one folder per year — move it to content/reviews/<year>/, the year of its date`;
  }
  if (folder) {
    return `${start}, as a year folder holds review files (<id>.yaml) only — move the reviews in it up into ${path.basename(path.dirname(file))}/`;
  }
  const name = path.basename(file);
  const ext = path.extname(name);
  if (/^\.ya?ml$/i.test(ext)) {
    return `${start}, as a review file's name ends in .yaml — rename it to ${name.slice(0, -ext.length)}.yaml`;
  }
  return `${start}, as a year folder holds review files (<id>.yaml) only — move it out of content/ or delete it`;
}
