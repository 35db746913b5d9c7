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

/** A link into the repository: a file relative to the Markdown file, and maybe a heading in it. */
export interface RelativeLink {
  file: string;
  anchor?: string;
}

/** `[text](target)` links that point into the repository (no scheme); `#x` alone is this file. */
export function relativeLinks(text: string): RelativeLink[] {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))
    .map((t) => {
      const [file = "", anchor] = t.split("#");
      return anchor === undefined ? { file } : { file, anchor };
    });
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(text: string): Set<string> {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, "");
  return new Set(
    [...prose.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
      (m[1] as string)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}
