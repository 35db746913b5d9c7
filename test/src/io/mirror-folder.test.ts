import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { mirrorFolder } from "../../../src/io/mirror-folder.ts";

const temp: string[] = [];
afterAll(async () => {
  await Promise.all(temp.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-mirror-"));
  temp.push(dir);
  return dir;
}

/** Writes `files` (relative path → text) under `dir`. */
async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
}

/** Every file under `dir` with its text, and every folder (as `name/`). */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(dir, path.join(e.parentPath, e.name));
    out[e.isDirectory() ? `${rel}/` : rel] = e.isDirectory() ? "" : await readFile(path.join(dir, rel), "utf8");
  }
  return out;
}

describe("mirrorFolder", () => {
  it("copies what is new or changed, removes what the source lacks and leaves the rest untouched", async () => {
    const from = await tempDir();
    const to = await tempDir();
    await write(to, { "same.html": "same", "changed.json": "old", "gone/a.html": "a", "old.txt": "x" });
    // Written by an earlier build (files written in one clock tick share a time).
    await utimes(path.join(to, "old.txt"), new Date(1_000), new Date(1_000));
    await write(from, { "changed.json": "new!", "new/deep/b.html": "b", "old.txt": "x" });
    // "same.html" as a copy would have it: same bytes and time in both.
    await write(from, { "same.html": "same" });
    const when = new Date("2026-01-02T03:04:05.678Z");
    await utimes(path.join(from, "same.html"), when, when);
    await utimes(path.join(to, "same.html"), when, when);
    const sameBefore = await stat(path.join(to, "same.html"));

    const result = await mirrorFolder(from, to);

    expect(await tree(to)).toEqual(await tree(from));
    expect(result).toEqual({ copied: 3, removed: 1, kept: 1 });
    const sameAfter = await stat(path.join(to, "same.html"));
    expect(sameAfter.ctimeMs).toBe(sameBefore.ctimeMs);
    // Copies keep the source's modification time, so the next mirror finds them the same.
    expect((await stat(path.join(to, "new/deep/b.html"))).mtimeMs).toBeCloseTo(
      (await stat(path.join(from, "new/deep/b.html"))).mtimeMs,
      3,
    );
    expect(await mirrorFolder(from, to)).toEqual({ copied: 0, removed: 0, kept: 4 });
  });

  it("copies a file of the same size written at another time", async () => {
    const from = await tempDir();
    const to = await tempDir();
    await write(to, { "page.html": "aaaa" });
    await write(from, { "page.html": "bbbb" });
    await utimes(path.join(to, "page.html"), new Date(1_000), new Date(1_000));
    expect((await mirrorFolder(from, to)).copied).toBe(1);
    expect(await readFile(path.join(to, "page.html"), "utf8")).toBe("bbbb");
  });

  it("replaces a file with a folder and a folder with a file", async () => {
    const from = await tempDir();
    const to = await tempDir();
    await write(to, { x: "file", "y/inner.html": "folder" });
    await write(from, { "x/inner.html": "folder now", y: "file now" });
    await mirrorFolder(from, to);
    expect(await tree(to)).toEqual(await tree(from));
  });

  it("leaves any folder holding exactly the source's files (property)", async () => {
    const name = fc.constantFrom("a", "b", "c", "index.html", "d.json");
    const rel = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));
    // A tree is a set of paths none of which is a folder of another.
    const files = fc
      .dictionary(rel, fc.string({ maxLength: 8 }), { maxKeys: 8 })
      .map((d) =>
        Object.fromEntries(
          Object.entries(d).filter(([p]) => !Object.keys(d).some((q) => q !== p && q.startsWith(`${p}/`))),
        ),
      );
    await fc.assert(
      fc.asyncProperty(files, files, async (a, b) => {
        const from = await tempDir();
        const to = await tempDir();
        await write(from, a);
        await write(to, b);
        // Another build's files: written earlier (files written in one clock tick share a time).
        for (const [i, rel] of Object.keys(b).entries()) {
          await utimes(path.join(to, rel), new Date(1_000 + i), new Date(1_000 + i));
        }
        await mirrorFolder(from, to);
        expect(await tree(to)).toEqual(await tree(from));
      }),
      { numRuns: 60 },
    );
  });
});
