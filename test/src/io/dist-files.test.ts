import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { strongEtag } from "../../../src/http-headers/manifest.ts";
import { etagDistFiles, listDistFiles, readDistFiles } from "../../../src/io/dist-files.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

describe("etagDistFiles", () => {
  it("gives every file the strongEtag of its whole bytes, small or read in several 1 MiB pieces, in path order", async () => {
    const dir = await temp.make("pr-dist-etags-");
    await mkdir(path.join(dir, "reviews/2024/03"), { recursive: true });
    // Empty, small, and larger than one read, with a multi-byte character across the 1 MiB boundary.
    const big = Buffer.concat([Buffer.alloc(65_535, "a"), Buffer.from("é✓"), Buffer.alloc(300_000, "b")]);
    await writeFile(path.join(dir, "empty.txt"), "");
    await writeFile(path.join(dir, "reviews.json"), big);
    // Above the 1 MiB buffer it is hashed through: hashed in pieces.
    const huge = Buffer.concat([
      Buffer.alloc(1024 * 1024 - 1, "c"),
      Buffer.from("✓"),
      big,
      Buffer.alloc(1024 * 1024, "d"),
    ]);
    await writeFile(path.join(dir, "feed.xml"), huge);
    await writeFile(path.join(dir, "reviews/2024/03/index.html"), "<p>March</p>\n");
    for (let i = 0; i < 9; i++) await writeFile(path.join(dir, `f${i}.txt`), `file ${i}`);

    const etags = etagDistFiles(dir);
    const expected = (await readDistFiles(dir)).map((f) => ({ path: f.path, etag: strongEtag(f.bytes) }));
    expect(etags.map(({ path, etag }) => ({ path, etag }))).toEqual(expected);
    expect(etags.find((e) => e.path === "/reviews.json")?.etag).toBe(strongEtag(big));
    expect(etags.find((e) => e.path === "/feed.xml")?.etag).toBe(strongEtag(huge));
    expect(etags.map((e) => e.path)).toContain("/reviews/2024/03/index.html");
  });

  it("takes a file's ETag from the memo while the file is as it was hashed, and hashes it again once written", async () => {
    const dir = await temp.make("pr-dist-etags-");
    const page = path.join(dir, "index.html");
    await writeFile(page, "<p>one</p>");
    await utimes(page, new Date(1_000), new Date(1_000));
    const [first] = etagDistFiles(dir);
    expect(first?.etag).toBe(strongEtag("<p>one</p>"));
    // The memo is believed: a key it knows is not read again.
    const known = new Map([[first?.key as string, '"remembered"']]);
    expect(etagDistFiles(dir, known)[0]?.etag).toBe('"remembered"');
    // Written again, with the same size: another modification time, another key.
    await writeFile(page, "<p>two</p>");
    await utimes(page, new Date(2_000), new Date(2_000));
    const [again] = etagDistFiles(dir, known);
    expect(again?.key).not.toBe(first?.key);
    expect(again?.etag).toBe(strongEtag("<p>two</p>"));
  });

  it("is empty for an empty build", async () => {
    const dir = await temp.make("pr-dist-etags-");
    expect(etagDistFiles(dir)).toEqual([]);
  });
});

describe("listDistFiles", () => {
  it("names each file by its site path under the folder, however the folder is written", async () => {
    const dir = await temp.make("pr-dist-list-");
    await mkdir(path.join(dir, "reviews/2024/03"), { recursive: true });
    for (const f of ["reviews/2024/03/index.html", "feed.xml", "a b.txt"]) await writeFile(path.join(dir, f), "x");
    const paths = ["/a b.txt", "/feed.xml", "/reviews/2024/03/index.html"];
    for (const written of [dir, `${dir}/`, `${dir}/reviews/..`, path.relative(process.cwd(), dir)]) {
      const files = listDistFiles(written);
      expect(
        files.map((f) => f.path),
        written,
      ).toEqual(paths);
      expect(
        files.map((f) => f.abs),
        written,
      ).toEqual(paths.map((p) => path.join(written, p)));
    }
  });
});
