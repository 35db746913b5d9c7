import { spawnSync } from "node:child_process";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  compact,
  keepReadPacks,
  MAX_PACKS,
  MAX_STALE_SHARE,
  PackIndex,
  PackWriter,
  sweepTemporary,
  writing,
} from "../../../src/io/pack-file.ts";

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

  it("keeps a pack read once only in a process that builds again (keepReadPacks)", async () => {
    const writer = new PackWriter(dir);
    writer.add(KEY_A, '{"x":1}');
    writer.close();
    const [name] = await readdir(dir);
    const file = path.join(dir, name as string);
    // Same inode, size and modification time, other bytes: only a pack read again shows them.
    const rewrite = (from: string, to: string) => {
      writeFileSync(file, readFileSync(file, "utf8").replace(from, to));
      utimesSync(file, 1_700_000_000, 1_700_000_000);
    };
    rewrite("1", "2");
    expect(new PackIndex(dir).get(KEY_A)).toBe('{"x":2}');
    rewrite("2", "3");
    expect(new PackIndex(dir).get(KEY_A)).toBe('{"x":3}');
    keepReadPacks();
    try {
      expect(new PackIndex(dir).get(KEY_A)).toBe('{"x":3}');
      rewrite("3", "4");
      expect(new PackIndex(dir).get(KEY_A)).toBe('{"x":3}');
    } finally {
      keepReadPacks(0);
    }
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

  describe("when compaction rewrites", () => {
    const key = (i: number) => i.toString(16).padStart(64, "0");
    /** One pack of entries `from` to `to` (exclusive), each holding its number. */
    const pack = (from: number, to: number) => {
      const w = new PackWriter(dir);
      for (let i = from; i < to; i++) w.add(key(i), String(i));
      w.close();
    };
    const range = (from: number, to: number) => new Set(Array.from({ length: to - from }, (_, k) => key(from + k)));
    const packs = async () => (await readdir(dir)).filter((n) => n.endsWith(".pack"));

    it("leaves a build's few changes in their own pack, every kept entry still read", async () => {
      pack(0, 100);
      const index = new PackIndex(dir);
      pack(100, 102);
      // Two entries of the first pack are no longer kept, two new ones are: 2 stale of 100.
      const keep = range(2, 102);
      compact([index], keep);
      expect(await packs()).toHaveLength(2);
      const after = new PackIndex(dir);
      for (const k of keep) expect(after.get(k)).toBe(String(Number.parseInt(k, 16)));
    });

    it("rewrites once stale entries pass their share of the kept ones", async () => {
      pack(0, 100);
      const stale = Math.floor(100 * MAX_STALE_SHARE) + 1;
      const keep = range(stale, 100);
      compact([new PackIndex(dir)], keep);
      expect(await packs()).toHaveLength(1);
      expect(new PackIndex(dir).size).toBe(keep.size);
      // At the share exactly, nothing is rewritten.
      pack(100, 100 + Math.floor(keep.size * MAX_STALE_SHARE));
      compact([new PackIndex(dir)], keep);
      expect(await packs()).toHaveLength(2);
    });

    it("merges the packs once there are more than MAX_PACKS, and when asked to", async () => {
      for (let i = 0; i < MAX_PACKS; i++) pack(i * 10, i * 10 + 10);
      compact([new PackIndex(dir)], range(0, MAX_PACKS * 10));
      expect(await packs()).toHaveLength(MAX_PACKS);
      pack(MAX_PACKS * 10, MAX_PACKS * 10 + 10);
      compact([new PackIndex(dir)], range(0, MAX_PACKS * 10 + 10));
      expect(await packs()).toHaveLength(1);
      expect(new PackIndex(dir).size).toBe(MAX_PACKS * 10 + 10);
      pack(1000, 1001);
      compact([new PackIndex(dir)], range(0, MAX_PACKS * 10 + 10).add(key(1000)), true);
      expect(await packs()).toHaveLength(1);
    });

    it("prefers the line written since the indexes were read: a damaged entry stored again wins", async () => {
      const w = new PackWriter(dir);
      w.add(KEY_A, "damaged");
      w.add(KEY_B, "2");
      w.close();
      const index = new PackIndex(dir);
      const again = new PackWriter(dir);
      again.add(KEY_A, "1");
      again.close();
      compact([index], new Set([KEY_A, KEY_B]), true);
      const after = new PackIndex(dir);
      expect([after.get(KEY_A), after.get(KEY_B), (await packs()).length]).toEqual(["1", "2", 1]);
    });
  });

  it("reads a pack again when it changed on disk, and nothing of one removed", async () => {
    const w = new PackWriter(dir);
    w.add(KEY_A, "1");
    w.close();
    expect(new PackIndex(dir).get(KEY_A)).toBe("1");
    // Read twice, as npm start's build worker does from one build to the next.
    expect(new PackIndex(dir).get(KEY_A)).toBe("1");
    const [name] = await readdir(dir);
    const file = path.join(dir, name as string);
    await writeFile(file, `${KEY_A} 22\n${KEY_B} 3\n`);
    const changed = new PackIndex(dir);
    expect([changed.get(KEY_A), changed.get(KEY_B)]).toEqual(["22", "3"]);
    await rm(file);
    expect(new PackIndex(dir).size).toBe(0);
  });

  it("a missing folder is an empty cache", () => {
    expect(new PackIndex(path.join(dir, "none")).size).toBe(0);
    expect(() => sweepTemporary(path.join(dir, "none"))).not.toThrow();
  });
});
