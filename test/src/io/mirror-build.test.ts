import { mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MANIFEST_FILE, strongEtag } from "../../../src/http-headers/manifest.ts";
import { mirrorBuild } from "../../../src/io/mirror-build.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

/**
 * A build's folder: `files` (site path → text), its header manifest and `_headers`. `settled`: a
 * clock tick between the pages and the manifest, as a build hashes its pages after writing them, so
 * a page reads as unchanged since the manifest was made (only `edited` mirroring asks).
 */
async function build(files: Record<string, string>, settled = false): Promise<string> {
  const dir = await temp.make("pr-mirror-");
  const manifest: { version: 1; files: Record<string, object> } = { version: 1, files: {} };
  for (const [p, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), text);
    manifest.files[p] = { etag: strongEtag(text), content_type: "text/html", cache_control: "no-cache" };
  }
  if (settled) await new Promise((r) => setTimeout(r, 20));
  await writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  await writeFile(path.join(dir, "_headers"), Object.keys(files).join("\n"));
  return dir;
}

/** Every file and folder (as `name/`) under `dir`, with each file's text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(dir, path.join(e.parentPath, e.name));
    out[e.isDirectory() ? `${rel}/` : rel] = e.isDirectory() ? "" : await readFile(path.join(dir, rel), "utf8");
  }
  return out;
}

describe("mirrorBuild", () => {
  it("copies what is new or changed, removes what the source lacks and leaves the rest where it is", async () => {
    const to = await build({ "/same.html": "same", "/changed.json": "old", "/gone/a.html": "a" });
    const from = await build({ "/same.html": "same", "/changed.json": "new!", "/new/deep/b.html": "b" });
    const same = await stat(path.join(to, "same.html"));

    expect(await mirrorBuild(from, to)).toEqual({ copied: 2, removed: 1, kept: 1 });

    expect(await tree(to)).toEqual(await tree(from));
    const after = await stat(path.join(to, "same.html"));
    expect([after.ino, after.mtimeMs]).toEqual([same.ino, same.mtimeMs]);
    // The header files came too, so the next mirror has nothing to do.
    expect(await mirrorBuild(from, to)).toEqual({ copied: 0, removed: 0, kept: 3 });
  });

  it("copies a file edited after its build when told the folder may have been edited", async () => {
    const to = await build({ "/page.html": "built", "/other.html": "other" }, true);
    const from = await build({ "/page.html": "built", "/other.html": "other" });
    // Edited by hand after the build, to the same length: the manifest still names the built bytes;
    // and its modification time set back to before the build (touch -r, cp -p), which its ctime shows.
    await writeFile(path.join(to, "page.html"), "EDITS");
    const past = new Date(Date.now() - 60_000);
    await utimes(path.join(to, "page.html"), past, past);
    expect(await mirrorBuild(from, to, { edited: true })).toEqual({ copied: 1, removed: 0, kept: 1 });
    expect(await readFile(path.join(to, "page.html"), "utf8")).toBe("built");
  });

  it("replaces a file with a folder and a folder with a file", async () => {
    const to = await build({ "/x": "file", "/y/inner.html": "folder" });
    const from = await build({ "/x/inner.html": "folder now", "/y": "file now" });
    await mirrorBuild(from, to);
    expect(await tree(to)).toEqual(await tree(from));
  });

  it("changes nothing when a manifest cannot be read", async () => {
    const to = await build({ "/a.html": "a" });
    const from = await build({ "/b.html": "b" });
    await writeFile(path.join(from, MANIFEST_FILE), "{}");
    const before = await tree(to);
    await expect(mirrorBuild(from, to)).rejects.toThrow(MANIFEST_FILE);
    expect(await tree(to)).toEqual(before);
  });

  it("leaves any build holding exactly the other's files (property)", async () => {
    const name = fc.constantFrom("a", "b", "c", "index.html", "d.json");
    const sitePath = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join("/")}`);
    // A build is a set of paths none of which is a folder of another.
    const files = fc
      .dictionary(sitePath, fc.string({ maxLength: 8 }), { maxKeys: 8 })
      .map((d) =>
        Object.fromEntries(
          Object.entries(d).filter(([p]) => !Object.keys(d).some((q) => q !== p && q.startsWith(`${p}/`))),
        ),
      );
    await fc.assert(
      fc.asyncProperty(files, files, async (a, b) => {
        const from = await build(a);
        const to = await build(b);
        await mirrorBuild(from, to);
        expect(await tree(to)).toEqual(await tree(from));
      }),
      { numRuns: 60 },
    );
  });
});
