import { hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Business } from "../content/records.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";

/**
 * The build's cache of review analysis: each review's summary (review-summary.ts) is a pure
 * function of its annotated fields, of the insights content, of the business and of the code and
 * model that analyse it, so it is kept between builds in Astro's cache folder under a hash of all
 * of those. A rebuild after editing one review analyses that review; the rest is read back.
 *
 * Packed, not one file per review (src/io/pack-file.ts): one pack per analysis thread that had
 * work, read once as bytes; an entry is decoded when its review comes up, so the cache costs no
 * file system call per review. After the build the entries it used are written to one pack and the
 * others removed, so the cache stays the size of the content. An entry that is cut short or does
 * not decode is a miss: the review is analysed again, never read wrong.
 */

const require = createRequire(import.meta.url);
const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

/**
 * The analysing code: every source file of the insights and the content model, hashed. The build
 * bundles these modules, so the files are read from the project root, as the worker's are. Without
 * them there is no cache (an entry must never outlive the code that made it).
 */
function codeVersion(root: string): string | undefined {
  const parts: string[] = [`wink-nlp ${version("wink-nlp")}`, `model ${version("wink-eng-lite-web-model")}`];
  try {
    for (const folder of ["src/insights", "src/content"]) {
      for (const name of readdirSync(path.join(root, folder)).sort()) {
        if (name.endsWith(".ts")) parts.push(name, readFileSync(path.join(root, folder, name), "utf8"));
      }
    }
  } catch {
    return undefined;
  }
  return hash("sha256", parts.join("\0"), "hex");
}

/**
 * The part of every key this build shares: the code, and the parts of the insights content and of
 * the business the annotation reads (createSummariser), so that editing the FAQ, the summary or the
 * address keeps the cache. Undefined when the code cannot be identified.
 */
export function contextKey(content: InsightsContent, business: Business, root = process.cwd()): string | undefined {
  const code = codeVersion(root);
  const read = [
    content.aspects,
    content.lexicon,
    content.model ?? null,
    business.name,
    business.technicians,
    business.services,
    business.service_areas,
  ];
  return code && hash("sha256", `${code}\0${JSON.stringify(read)}`, "hex");
}

/** Key of one review's summary: the context and exactly the fields the annotation reads. */
export function summaryKey(context: string, r: ReviewInput): string {
  const fields = [r.title, r.text, r.rating, r.technicians, r.services, r.service_areas];
  return hash("sha256", `${context}\0${JSON.stringify(fields)}`, "hex");
}

/** The folder of packs inside an Astro cache folder. */
export function annotationDir(astroCacheDir: string): string {
  return path.join(astroCacheDir, "annotations");
}
