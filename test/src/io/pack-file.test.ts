import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compact, PackIndex, PackWriter, sweepTemporary, writing } from "../../../src/io/pack-file.ts";

const KEY_A = "a".repeat(64);
const KEY_B = "b".repeat(64);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pr-pack-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The id of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ["-e", ""]);
  if (pid === undefined) throw new Error("no child process");
  return pid;
}

describe("packs", () => {
  it("reads back what a closed writer wrote, and nothing of a dropped one", async () => {
    const kept = new PackWriter(dir);
    kept.add(KEY_A, '{"x":1}');
    kept.close();
    const dropped = new PackWriter(dir);
    dropped.add(KEY_B, '{"x":2}');
    dropped.abort();
    expect(await readdir(dir)).toHaveLength(1);
    const index = new PackIndex(dir);
    expect(index.get(KEY_A)).toBe('{"x":1}');
    expect(index.has(KEY_B)).toBe(false);
  });

  it("drops the pack when filling it throws, and passes the error on", async () => {
    const writer = new PackWriter(dir);
    expect(() =>
      writing(writer, () => {
        writer.add(KEY_A, "1");
        throw new Error("analysis failed");
      }),
    ).toThrow("analysis failed");
    expect(await readdir(dir)).toEqual([]);
  });

  it("removes temporary files of exited processes and of this one, not of a running process", async () => {
    const names = {
      dead: `${deadPid()}-0-x.pack.tmp`,
      mine: `${process.pid}-1-y.pack.tmp`,
      running: `${process.ppid}-0-z.pack.tmp`,
      unnamed: "junk.pack.tmp",
      other: "notes.txt",
    };
    for (const name of Object.values(names)) await writeFile(path.join(dir, name), "partial");
    sweepTemporary(dir);
    expect((await readdir(dir)).sort()).toEqual([names.other, names.running].sort());
  });

  it("compaction leaves one pack of the kept entries and no temporary file", async () => {
    for (const [key, json] of [
      [KEY_A, "1"],
      [KEY_B, "2"],
    ] as const) {
      const w = new PackWriter(dir);
      w.add(key, json);
      w.close();
    }
    await writeFile(path.join(dir, `${deadPid()}-0-left.pack.tmp`), `${KEY_B} 3\n`);
    compact([new PackIndex(dir)], new Set([KEY_A]));
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.pack$/);
    const index = new PackIndex(dir);
    expect([index.size, index.get(KEY_A)]).toEqual([1, "1"]);
  });

  it("a missing folder is an empty cache", () => {
    expect(new PackIndex(path.join(dir, "none")).size).toBe(0);
    expect(() => sweepTemporary(path.join(dir, "none"))).not.toThrow();
  });
});
