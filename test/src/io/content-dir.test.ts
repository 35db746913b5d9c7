import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { displayPath } from "../../../src/io/content-dir.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * Messages name a review file by `displayPath` of its path (relative to the working folder when
 * inside it), or of its place under `shownAs`. readContentDir makes the names of a year folder's
 * files from the folder's; each must be the name `displayPath` gives, wherever the reading process
 * runs: above the content, in the year folder itself, or outside it.
 */

const MODULE = path.resolve(import.meta.dirname, "../../../src/io/content-dir.ts");
const run = promisify(execFile);
const temp = tempFolders();
const FILES = ["2025-03-01-a.yaml", "2025-03-02-b.yaml"];

let root: string;
let content: string;
let year: string;

beforeAll(async () => {
  root = await temp.make("content-dir-");
  content = path.join(root, "site", "content");
  year = path.join(content, "reviews", "2025");
  await mkdir(year, { recursive: true });
  for (const f of FILES) await writeFile(path.join(year, f), "rating: 5\n");
  await mkdir(path.join(root, "staged-from", "reviews", "2025"), { recursive: true });
});

/** The review files' names as readContentDir gives them, read by a process working in `cwd`. */
async function namesFrom(cwd: string, dir: string, shownAs?: string): Promise<string[]> {
  const script = `const { readContentDir } = await import(${JSON.stringify(MODULE)});
const read = await readContentDir(${JSON.stringify(dir)}, ${JSON.stringify(shownAs === undefined ? {} : { shownAs })});
process.stdout.write(JSON.stringify(read.reviews.map((r) => r.file)));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd });
  return JSON.parse(stdout) as string[];
}

describe("readContentDir's file names", () => {
  it.each([
    ["above the content", () => root, () => content],
    ["in the year folder", () => year, () => content],
    ["in the content folder, given as .", () => content, () => "."],
    ["outside it", () => path.dirname(root), () => content],
  ])("are displayPath's when working %s", async (_, cwd, dir) => {
    const names = await namesFrom(cwd(), dir());
    const expected = FILES.map((f) => displayPath(path.join(dir(), "reviews", "2025", f), cwd()));
    expect(names).toEqual(expected);
  });

  it("are displayPath's of their place under shownAs", async () => {
    for (const [cwd, shownAs] of [
      [root, path.join(root, "staged-from")],
      [root, "site/content"],
      [path.join(root, "staged-from", "reviews", "2025"), path.join(root, "staged-from")],
    ] as const) {
      const names = await namesFrom(cwd, content, shownAs);
      const expected = FILES.map((f) => displayPath(path.join(shownAs, "reviews", "2025", f), cwd));
      expect(names, `${cwd} ${shownAs}`).toEqual(expected);
    }
  });
});
