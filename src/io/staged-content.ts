import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The content folder as it is staged for the next commit (git's index), copied into a temporary
 * folder: what the pre-commit hook checks (`npm run check -- --staged`), so a file an editor has
 * not added yet (an unfinished scaffold) or an unstaged edit never blocks committing the others.
 */

export class StagedContentError extends Error {
  override name = "StagedContentError";
}

/**
 * Runs `fn` on a copy of the staged files under `contentDir` and removes the copy after. Throws
 * StagedContentError, with a sentence to print, when there is no repository or the folder is not in it.
 */
export async function withStagedContent<T>(contentDir: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const abs = path.resolve(contentDir);
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { cwd: abs, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  let top: string;
  try {
    top = git(["rev-parse", "--show-toplevel"]).trim();
  } catch {
    throw new StagedContentError(`--staged: ${JSON.stringify(contentDir)} is not inside a git repository`);
  }
  // Both sides resolved, so a content folder reached through a link still lies under the top.
  const rel = path.relative(top, realOrSelf(abs));
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new StagedContentError(
      `--staged: CONTENT_DIR ${JSON.stringify(contentDir)} is outside the repository at ${top}`,
    );
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "check-staged-"));
  try {
    // Paths relative to the top (`--full-name`), NUL-separated so no name is misread.
    const files = git(["-C", top, "ls-files", "-z", "--cached", "--full-name", "--", rel || "."]);
    if (files !== "") git(["-C", top, "checkout-index", "-z", "--stdin", `--prefix=${tmp}${path.sep}`], files);
    return await fn(path.join(tmp, rel));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
