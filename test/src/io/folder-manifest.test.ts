import { chmod, copyFile, cp, mkdir, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MANIFEST_FILE, strongEtag } from "../../../src/http-headers/manifest.ts";
import { etagDistFiles } from "../../../src/io/dist-files.ts";
import { readFolderManifest } from "../../../src/io/folder-manifest.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

const headers = (etag: string) => ({ etag, content_type: "text/html", cache_control: "no-cache" });

/** A built folder: its files, then a manifest listing `etags` (by default each file's own), made last as a build makes it. */
async function built(files: Record<string, string>, etags: Record<string, string> = {}): Promise<string> {
  const dir = await temp.make("pr-folder-manifest-");
  for (const [p, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
    await writeFile(path.join(dir, p), text);
  }
  // A clock tick between the files and the manifest, as between a build's pages and its hashing.
  await new Promise((r) => setTimeout(r, 20));
  const listed = Object.fromEntries(
    Object.entries(files).map(([p, text]) => [`/${p}`, headers(etags[p] ?? strongEtag(text))]),
  );
  await writeFile(path.join(dir, MANIFEST_FILE), JSON.stringify({ version: 1, files: listed }));
  return dir;
}

const etagsOf = (dir: string) =>
  Object.fromEntries(
    etagDistFiles(dir, new Map(), readFolderManifest(dir))
      .filter((f) => f.path !== `/${MANIFEST_FILE}`)
      .map((f) => [f.path, f.etag]),
  );

describe("the ETags an output folder's manifest vouches for (folder-manifest.ts)", () => {
  it("are taken for files unchanged since the manifest was made, so they are not hashed", async () => {
    // The manifest lists another ETag than the bytes have: taking it shows the file was not hashed.
    const dir = await built({ "a/index.html": "<p>a</p>", "b.json": "{}" }, { "b.json": '"listed"' });
    expect(etagsOf(dir)).toEqual({ "/a/index.html": strongEtag("<p>a</p>"), "/b.json": '"listed"' });
  });

  it("are not taken for a file written, touched or moved since, nor for one the manifest does not list", async () => {
    const dir = await built(
      { "a.html": "a", "b.html": "b", "c.html": "c" },
      { "a.html": '"x"', "b.html": '"y"', "c.html": '"z"' },
    );
    await writeFile(path.join(dir, "a.html"), "a2");
    // Set back to before the manifest: a changed mtime alone would vouch for the file again.
    const past = new Date(Date.now() - 3_600_000);
    await utimes(path.join(dir, "a.html"), past, past);
    await chmod(path.join(dir, "b.html"), 0o600);
    await writeFile(path.join(dir, "new.html"), "n");
    await rm(path.join(dir, "c.html"));
    await writeFile(path.join(dir, "c2.html"), "c2");
    await cp(path.join(dir, "c2.html"), path.join(dir, "c.html"), { preserveTimestamps: true });
    expect(etagsOf(dir)).toEqual({
      "/a.html": strongEtag("a2"),
      "/b.html": strongEtag("b"),
      "/c.html": strongEtag("c2"),
      "/c2.html": strongEtag("c2"),
      "/new.html": strongEtag("n"),
    });
  });

  it("are still dated by the manifest's making once it is touched or its mode changed", async () => {
    const dir = await built({ "a.html": "a" }, { "a.html": '"listed"' });
    await writeFile(path.join(dir, "a.html"), "edited");
    const later = new Date(Date.now() + 3_600_000);
    await utimes(path.join(dir, MANIFEST_FILE), later, later);
    await chmod(path.join(dir, MANIFEST_FILE), 0o600);
    expect(etagsOf(dir)).toEqual({ "/a.html": strongEtag("edited") });
  });

  it("vouch for a copy of a build whose manifest is copied last, as npm start's spare folder is", async () => {
    const from = await built({ "r/1/index.html": "one", "r/2/index.html": "two" }, { "r/2/index.html": '"listed"' });
    const to = `${from}-copy`;
    temp.add(to);
    await cp(from, to, { recursive: true, filter: (src) => path.basename(src) !== MANIFEST_FILE });
    await new Promise((r) => setTimeout(r, 20));
    await copyFile(path.join(from, MANIFEST_FILE), path.join(to, MANIFEST_FILE));
    expect(etagsOf(to)).toEqual({ "/r/1/index.html": strongEtag("one"), "/r/2/index.html": '"listed"' });
  });

  it("vouch for nothing when the folder has no manifest or a damaged one", async () => {
    const dir = await built({ "a.html": "a" }, { "a.html": '"listed"' });
    await writeFile(path.join(dir, MANIFEST_FILE), "{not json");
    expect(etagsOf(dir)).toEqual({ "/a.html": strongEtag("a") });
    await rm(path.join(dir, MANIFEST_FILE));
    expect(etagsOf(dir)).toEqual({ "/a.html": strongEtag("a") });
  });
});
