import { readdir } from "node:fs/promises";
import path from "node:path";
import type { InsightsContent } from "../insights/content-schema.ts";
import {
  FILES,
  type FileName,
  type RawInsightsContent,
  validateInsightsContent,
} from "../insights/validate-content.ts";
import { type ShownAs, shownPath } from "./content-dir.ts";
import { contentRoot, readContentFile } from "./content-file.ts";

/**
 * Reading `content/insights/` from disk; validation is pure, in src/insights/validate-content.ts.
 * A file that leads outside the content folder, or is not a regular file, is refused unread
 * (content-file.ts).
 */

export async function readInsightsDir(contentDir: string, opts: ShownAs = {}): Promise<RawInsightsContent> {
  const show = shownPath(contentDir, opts);
  const dir = path.join(contentDir, "insights");
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  const raw: RawInsightsContent = { files: {}, strays: [] };
  const root = contentRoot(contentDir);
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const p = path.join(dir, name);
    if ((FILES as readonly string[]).includes(name)) {
      raw.files[name as FileName] = { file: show(p), text: readContentFile(root, p, show(p)) };
    } else {
      raw.strays.push(show(p));
    }
  }
  return raw;
}

/** Reads and validates the insights folder of `contentDir` against the ids of the loaded reviews. */
export async function loadInsightsContent(contentDir: string, reviewIds: Iterable<string>): Promise<InsightsContent> {
  return validateInsightsContent(await readInsightsDir(contentDir), new Set(reviewIds));
}
