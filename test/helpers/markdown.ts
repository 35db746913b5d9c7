import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * Reads the project's Markdown the way a reader copies from it: fenced ```sh blocks are commands
 * to run, and relative links are files that must exist.
 */

export interface ShellBlock {
  /** `docs/api.md:42`, the line of the opening fence. */
  where: string;
  code: string;
}

/** README.md and every docs/*.md, relative to `root`. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** Every block fenced as ```sh (or ```bash); ```console and ```text blocks are shown, never run. */
export function shellBlocks(file: string, text: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let open: { line: number; lang: string; lines: string[] } | undefined;
  text.split("\n").forEach((line, i) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (!fence) {
      open?.lines.push(line);
      return;
    }
    if (!open) open = { line: i + 1, lang: fence[1] ?? "", lines: [] };
    else {
      if (open.lang === "sh" || open.lang === "bash") {
        blocks.push({ where: `${file}:${open.line}`, code: open.lines.join("\n") });
      }
      open = undefined;
    }
  });
  return blocks;
}

/** Targets of `[text](target)` links that point into the repository (no scheme, not only an anchor). */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("#"))
    .map((t) => t.split("#")[0] as string);
}
