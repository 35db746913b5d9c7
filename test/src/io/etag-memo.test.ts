import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEtagMemo, SETTLED_MS, saveEtagMemo } from "../../../src/io/etag-memo.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

/** A file written long before the memo is saved. */
const file = (key: string, etag: string) => ({ key, etag, writtenMs: 0 });

describe("etag memo", () => {
  it("knows the last two builds' files, and forgets the third", async () => {
    const cache = await temp.make("pr-etag-memo-");
    expect(readEtagMemo(cache).known.size).toBe(0);
    saveEtagMemo(cache, readEtagMemo(cache), [file("/a\n1:1:1", '"a1"')]);
    saveEtagMemo(cache, readEtagMemo(cache), [file("/a\n2:2:2", '"a2"')]);
    expect([...readEtagMemo(cache).known]).toEqual([
      ["/a\n2:2:2", '"a2"'],
      ["/a\n1:1:1", '"a1"'],
    ]);
    saveEtagMemo(cache, readEtagMemo(cache), [file("/a\n3:3:3", '"a3"')]);
    expect([...readEtagMemo(cache).known.keys()]).toEqual(["/a\n3:3:3", "/a\n2:2:2"]);
  });

  it("leaves out a file written less than two seconds before it is saved", async () => {
    const cache = await temp.make("pr-etag-memo-");
    const now = 1_000_000;
    saveEtagMemo(
      cache,
      readEtagMemo(cache),
      [
        { key: "/settled", etag: '"s"', writtenMs: now - SETTLED_MS },
        { key: "/recent", etag: '"r"', writtenMs: now - SETTLED_MS + 1 },
      ],
      now,
    );
    expect([...readEtagMemo(cache).known.keys()]).toEqual(["/settled"]);
  });

  it("is empty when its file is not what it writes", async () => {
    const cache = await temp.make("pr-etag-memo-");
    await writeFile(path.join(cache, "etag-memo.json"), '{"version":1,"builds":[[["/a"]]]}');
    expect(readEtagMemo(cache).known.size).toBe(0);
    await writeFile(path.join(cache, "etag-memo.json"), "{");
    expect(readEtagMemo(cache).known.size).toBe(0);
  });
});
