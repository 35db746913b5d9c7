import { type Dirent, readdirSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "../config.ts";
import { ContentError } from "../content/errors.ts";
import { type RawContent, type ValidatedContent, type ValidateOptions, validateContent } from "../content/validate.ts";
import {
  type ContentRoot,
  contentRoot,
  listedName,
  nameProblem,
  outsideProblem,
  readContentFile,
  readResolvedFile,
  realPathInside,
} from "./content-file.ts";
import { isStray, strayProblem } from "./stray-files.ts";

/**
 * Reading the content folder from disk: the file-system half of content loading. Validation is
 * pure and lives in src/content/validate.ts, so tests and tools can validate text they made.
 */

export function displayPath(abs: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : abs;
}

export interface ShownAs {
  /**
   * The folder messages name instead of `dir`: `npm run check -- --staged` reads a copy of the
   * staged files and names them where the editor keeps them.
   */
  shownAs?: string;
}

/** How messages name a path under `dir` (see `ShownAs`). */
export function shownPath(dir: string, { shownAs }: ShownAs): (p: string) => string {
  return (p) => displayPath(shownAs === undefined ? p : path.join(shownAs, path.relative(dir, p)));
}

/**
 * `show` of each name listed in `folder`, made from the folder's shown path: `displayPath` resolves
 * every path anew, and twice per review file that was a tenth of reading 10,000 of them. A name is
 * one segment, so its path shows as the folder's joined with it, unless the folder is the working
 * folder itself (a file there shows by its name alone): a probe name tells, and then each is shown
 * as `show` would.
 */
function shownIn(show: (p: string) => string, folder: string): (name: string) => string {
  const shown = show(folder);
  const probe = "probe.yaml";
  if (show(path.join(folder, probe)) !== path.join(shown, probe)) return (name) => show(path.join(folder, name));
  return (name) => path.join(shown, name);
}

/**
 * Why `dir` cannot be the content folder CONTENT_DIR names: it does not exist or is no folder (a
 * mistyped variable), or, with `business`, it holds no business.yaml. Undefined when it can.
 */
export function contentFolderProblem(dir: string, { business = false } = {}): string | undefined {
  const what = (why: string) =>
    `CONTENT_DIR must be the content folder, the one holding business.yaml and reviews/ (unset: content), got ${JSON.stringify(dir)}, which ${why}`;
  let folder: boolean;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    return what("does not exist");
  }
  if (!folder) return what("is a file, not a folder");
  if (business && !statSync(path.join(dir, "business.yaml"), { throwIfNoEntry: false }))
    return what("holds no business.yaml");
  return undefined;
}

/**
 * Reads `business.yaml` and every `reviews/<year>/*.yaml` under `dir`. Sorted, so output is stable.
 * Nothing outside `dir` is read (content-file.ts): every file or year folder that leads out of it,
 * every file that is not a regular file or not UTF-8, and every name that is not UTF-8, is listed
 * in `unread` with why, and validation reports it beside every other file's problems.
 */
export async function readContentDir(dir: string, opts: ShownAs = {}): Promise<RawContent> {
  // A folder that is not there is the environment's mistake, not a content file's: named as such.
  const missing = contentFolderProblem(dir);
  if (missing !== undefined) throw new ConfigError(missing);
  const show = shownPath(dir, opts);
  const root = contentRoot(dir);
  const unread: NonNullable<RawContent["unread"]> = [];
  // `real`: where a plain file in a folder resolved once already is (see below), so it is not resolved again.
  const read = (p: string, real?: string, shown = show(p)): string | undefined => {
    try {
      return real === undefined ? readContentFile(root, p, shown) : readResolvedFile(real, p, shown);
    } catch (err) {
      if (!(err instanceof ContentError)) throw err;
      unread.push({ file: shown, problems: err.problems });
      return undefined;
    }
  };
  const businessPath = path.join(dir, "business.yaml");
  const businessText = read(businessPath);
  const reviewsDir = path.join(dir, "reviews");
  const strays: string[] = [];
  // Where the links read lead, so the folders of content/ they lead into are not called strays.
  const reached = [businessPath, reviewsDir].map((p) => inside(root, p));
  const paths: { p: string; shown: string; real?: string }[] = [];
  for (const y of await listFolder(reviewsDir).catch(() => [])) {
    if (y.name.startsWith(".")) continue;
    const yPath = path.join(reviewsDir, y.name);
    if (y.escaped !== undefined) {
      unread.push({ file: show(yPath), problems: [nameProblem(show(yPath), y.escaped)] });
      continue;
    }
    // The year folder is resolved once: a plain file listed in it (not a link) is where the folder
    // resolves to, so only links are resolved one by one (10,000 calls at 10,000 reviews).
    const realYear = inside(root, yPath);
    if (y.entry.isSymbolicLink()) reached.push(realYear);
    if (y.entry.isSymbolicLink() && realYear === undefined) {
      unread.push({ file: show(yPath), problems: [outsideProblem(show(yPath))] });
      continue;
    }
    if (
      !(y.entry.isDirectory() || (y.entry.isSymbolicLink() && statSync(yPath).isDirectory())) ||
      !/^\d{4}$/.test(y.name)
    ) {
      strays.push(strayProblem(show(yPath), "reviews", isFolder(y.entry, yPath)));
      continue;
    }
    const showFile = shownIn(show, yPath);
    for (const f of await listFolder(yPath)) {
      if (f.name.startsWith(".")) continue;
      const p = path.join(yPath, f.name);
      if (f.escaped !== undefined) unread.push({ file: show(p), problems: [nameProblem(show(p), f.escaped)] });
      else if (!f.name.endsWith(".yaml")) strays.push(strayProblem(show(p), "year", isFolder(f.entry, p)));
      else if (realYear !== undefined && f.entry.isFile())
        paths.push({ p, shown: showFile(f.name), real: path.join(realYear, f.name) });
      else {
        if (f.entry.isSymbolicLink()) reached.push(inside(root, p));
        paths.push({ p, shown: showFile(f.name) });
      }
    }
  }
  reached.push(...linkedInsights(root, path.join(dir, "insights")));
  const top = (await listFolder(dir)).filter((e) => !e.name.startsWith("."));
  strays.unshift(
    ...top.flatMap(({ name, escaped, entry }) => {
      const p = path.join(dir, name);
      if (escaped !== undefined) return [nameProblem(show(p), escaped)];
      return isStray(root, name, reached) ? [strayProblem(show(p), "content", isFolder(entry, p))] : [];
    }),
  );
  // Read one after another, synchronously: only builds and command-line tools read a content folder,
  // and a synchronous read is one system call where a promise read is four, each through the
  // thread pool (at 10,000 reviews the promise reads were 5 % of a rebuild's CPU time).
  const reviews: RawContent["reviews"] = [];
  for (const { p, shown, real } of paths) {
    const text = read(p, real, shown);
    if (text !== undefined) reviews.push({ file: shown, text });
  }
  return { business: { file: show(businessPath), text: businessText }, reviews, strays, unread };
}

/**
 * A folder's entries, sorted by name, read as bytes: a name that is not UTF-8 comes with its
 * `escaped` bytes (`listedName`), since the string readdir would give for it opens nothing.
 */
async function listFolder(p: string): Promise<{ name: string; escaped?: string; entry: Dirent<Buffer> }[]> {
  const entries = await readdir(p, { withFileTypes: true, encoding: "buffer" });
  return entries.map((entry) => ({ ...listedName(entry.name), entry })).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Whether the entry at `p` is a folder, or a link to one. */
function isFolder(entry: Dirent<Buffer>, p: string): boolean {
  return (
    entry.isDirectory() || (entry.isSymbolicLink() && statSync(p, { throwIfNoEntry: false })?.isDirectory() === true)
  );
}

/** Where the insights folder and the links in it resolve to, inside the content folder. */
function linkedInsights(root: ContentRoot, insights: string): (string | undefined)[] {
  let links: string[];
  try {
    links = readdirSync(insights, { withFileTypes: true })
      .filter((e) => e.isSymbolicLink())
      .map((e) => path.join(insights, e.name));
  } catch {
    return [];
  }
  return [insights, ...links].map((p) => inside(root, p));
}

/** Where `p` resolves to, when that is inside the content folder; a dangling link resolves nowhere. */
function inside(root: ContentRoot, p: string): string | undefined {
  try {
    return realPathInside(root, p);
  } catch {
    return undefined;
  }
}

/** Reads and validates a content folder: the one call the build and tools make. */
export async function loadContent(dir: string, opts: ValidateOptions): Promise<ValidatedContent> {
  return validateContent(await readContentDir(dir), opts);
}
