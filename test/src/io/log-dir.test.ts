import { spawn, spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commitLogDir, folderReader, keptPartials, LogStateError, repairTiles } from "../../../src/io/log-dir.ts";
import { LOCK_FILE, withLogLock } from "../../../src/io/log-lock.ts";
import { generateKeyPair, parseVerifierKey, signerFromKey } from "../../../src/log/note-keys.ts";
import { readTiledLog } from "../../../src/log/read.ts";
import { appendEntries, EMPTY_LOG, type LogTree, rootOf, signedCheckpoint, tileFiles } from "../../../src/log/tree.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const ORIGIN = "reviews.test/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(1));
const signer = signerFromKey(KEY.skey);
const verifier = parseVerifierKey(KEY.vkey);
const entries = (n: number, from = 0) => Array.from({ length: n }, (_, i) => Buffer.from(`{"entry":${from + i}}`));

const temp = tempFolders();
async function dir(): Promise<string> {
  const d = await temp.make("pr-log-dir-");
  return d;
}

const read = (d: string, v = verifier) => readTiledLog(folderReader(d), { origin: ORIGIN, verifier: v });

async function commit(d: string, n: number, from: LogTree = EMPTY_LOG) {
  const note = from.entries.length === 0 ? undefined : (await read(d))?.note;
  const tree = appendEntries(from, entries(n, from.entries.length));
  await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signer), { note, size: from.entries.length });
  return tree;
}

describe("LOG_DIR (log-dir.ts)", () => {
  it("reads an empty folder as no log, and reads back what was committed, across tile boundaries", async () => {
    const d = await dir();
    expect(await read(path.join(d, "missing"))).toBeUndefined();
    const first = await commit(d, 300);
    const second = await commit(d, 250, first);
    const got = await read(d);
    expect(got?.tree.entries.length).toBe(550);
    expect(Buffer.from(rootOf(got?.tree ?? EMPTY_LOG))).toEqual(Buffer.from(rootOf(second)));
  });

  it("keeps the old log when a commit stops before its checkpoint, and replaces the tiles no checkpoint names", async () => {
    const d = await dir();
    const first = await commit(d, 10);
    // A build that wrote its tiles and died before the checkpoint's rename.
    const abandoned = appendEntries(first, [Buffer.from('{"never":"live"}')]);
    for (const [rel, bytes] of tileFiles(abandoned, 10)) {
      await mkdir(path.dirname(path.join(d, rel)), { recursive: true });
      await writeFile(path.join(d, rel), bytes);
    }
    expect((await read(d))?.tree.entries.length).toBe(10);
    const next = await commit(d, 1, first);
    expect(Buffer.from(rootOf((await read(d))?.tree ?? EMPTY_LOG))).toEqual(Buffer.from(rootOf(next)));
  });

  it("removes the temporary files of a commit killed before their rename, the signed checkpoint's among them", async () => {
    const d = await dir();
    const first = await commit(d, 10);
    // What writeSynced leaves when its build is killed between writing a file and renaming it.
    const abandoned = appendEntries(first, [Buffer.from('{"never":"live"}')]);
    const left = ["tile/0/000.p/11.tmp-999999-0a1b2c3d", "checkpoint.tmp-999999-4e5f6a7b"];
    await mkdir(path.join(d, "tile/0/000.p"), { recursive: true });
    await writeFile(path.join(d, left[0] as string), tileFiles(abandoned, 10).get("tile/0/000.p/11") as Uint8Array);
    await writeFile(path.join(d, left[1] as string), signedCheckpoint(abandoned, ORIGIN, signer));
    await commit(d, 1, first);
    const files = await readdir(d, { recursive: true });
    expect(files.filter((f) => f.includes(".tmp-"))).toEqual([]);
    expect((await read(d))?.tree.entries.length).toBe(11);
  });

  it("refuses to commit when the checkpoint changed since it was read, and commits nothing", async () => {
    const d = await dir();
    const first = await commit(d, 5);
    const stale = (await read(d))?.note;
    await commit(d, 2, first);
    const before = await readFile(path.join(d, "checkpoint"), "utf8");
    const rival = appendEntries(first, entries(3, 100));
    await expect(
      commitLogDir(d, rival, signedCheckpoint(rival, ORIGIN, signer), { note: stale, size: 5 }),
    ).rejects.toThrow(/changed while this build was appending to it/);
    expect(await readFile(path.join(d, "checkpoint"), "utf8")).toBe(before);
  });

  it("writes nothing once its lock is another's", async () => {
    const d = await dir();
    const first = await commit(d, 5);
    const note = (await read(d))?.note;
    const tiles = await readFile(path.join(d, "tile/0/000.p/5"));
    const next = appendEntries(first, entries(2, 5));
    const lost = async () => {
      throw new LogStateError("lock lost");
    };
    await expect(
      commitLogDir(d, next, signedCheckpoint(next, ORIGIN, signer), { note, size: 5 }, lost),
    ).rejects.toThrow("lock lost");
    await expect(readFile(path.join(d, "tile/0/000.p/7"))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(d, "tile/0/000.p/5"))).toEqual(tiles);
    expect((await read(d))?.checkpoint.size).toBe(5);
  });

  it("keeps the partial tiles of every checkpoint, and names those narrower than the tree's own", async () => {
    const d = await dir();
    const a = await commit(d, 130);
    const b = await commit(d, 2, a);
    expect(await readFile(path.join(d, "tile/0/000.p/130"))).toHaveLength(130 * 32);
    expect((await keptPartials(d, b)).map((t) => `${t.level}/${t.n}.p/${t.width}`)).toEqual([
      "0/0.p/130",
      "entries/0.p/130",
    ]);
    // Once the tile is full, its partials are no longer needed.
    const c = await commit(d, 124, b);
    expect(await keptPartials(d, c)).toEqual([]);
  });

  it("drops the partial tiles a commit interrupted before its checkpoint left for a larger tree", async () => {
    const d = await dir();
    const first = await commit(d, 10);
    // A build that wrote the tiles of 15 entries and died before its checkpoint.
    const abandoned = appendEntries(
      first,
      [1, 2, 3, 4, 5].map((i) => Buffer.from(`{"never":${i}}`)),
    );
    for (const [rel, bytes] of tileFiles(abandoned, 10)) {
      await mkdir(path.dirname(path.join(d, rel)), { recursive: true });
      await writeFile(path.join(d, rel), bytes);
    }
    const next = await commit(d, 3, first);
    const last = await commit(d, 5, next);
    // No checkpoint had 15 entries: its tiles are not an older checkpoint's, to serve or to repair.
    expect((await keptPartials(d, last)).map((t) => `${t.level}/${t.n}.p/${t.width}`)).toEqual([
      "0/0.p/10",
      "0/0.p/13",
      "entries/0.p/10",
      "entries/0.p/13",
    ]);
    expect(await repairTiles(d, last, async () => {})).toEqual([]);
  });

  it("refuses a changed entry, another origin's log and a checkpoint under another key", async () => {
    const d = await dir();
    await commit(d, 5);
    await expect(readTiledLog(folderReader(d), { origin: "elsewhere.test/log" })).rejects.toThrow(
      /is the log of reviews\.test\/log, not elsewhere\.test\/log/,
    );
    await expect(read(d, parseVerifierKey(generateKeyPair(ORIGIN).vkey))).rejects.toThrow(
      /is not signed by this log's key/,
    );
    const bundle = path.join(d, "tile/entries/000.p/5");
    await writeFile(
      bundle,
      (await readFile(bundle)).toString("latin1").replace('{"entry":2}', '{"entry":9}'),
      "latin1",
    );
    await expect(read(d)).rejects.toThrow(/do not hash to the checkpoint's root/);
  });
});

describe("one writer (log-lock.ts)", () => {
  it("runs holders one after the other, and removes the lock after", async () => {
    const d = await dir();
    const order: string[] = [];
    const hold = (name: string) =>
      withLogLock(d, async () => {
        order.push(`${name} in`);
        await new Promise((r) => setTimeout(r, 50));
        order.push(`${name} out`);
      });
    await Promise.all([hold("a"), hold("b")]);
    // Either may take the lock first (under load "b" sometimes does); never both at once.
    const first = order[0]?.[0] as string;
    const second = first === "a" ? "b" : "a";
    expect(order).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
    await expect(readFile(path.join(d, LOCK_FILE))).rejects.toThrow(/ENOENT/);
  });

  it("takes over the lock of a process that is gone, and refuses one held by a live process, naming it", async () => {
    const d = await dir();
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid as number;
    await writeFile(path.join(d, LOCK_FILE), `${dead}\n${hostname()}\n2026-01-01T00:00:00.000Z\n`);
    expect(await withLogLock(d, async () => "ran")).toBe("ran");
    // A waiter that died while breaking such a lock leaves its break file: that is taken over too.
    await writeFile(path.join(d, LOCK_FILE), `${dead}\n${hostname()}\n2026-01-01T00:00:00.000Z\n`);
    await writeFile(path.join(d, `${LOCK_FILE}.break`), `${dead}\n`);
    expect(await withLogLock(d, async () => "ran", { waitMs: 5_000 })).toBe("ran");
    await expect(readFile(path.join(d, `${LOCK_FILE}.break`))).rejects.toThrow(/ENOENT/);
    await writeFile(path.join(d, LOCK_FILE), `${process.ppid}\n${hostname()}\n2026-01-01T00:00:00.000Z\n`);
    const refused = withLogLock(d, async () => "ran", { waitMs: 300 });
    await expect(refused).rejects.toThrow(LogStateError);
    await expect(withLogLock(d, async () => "ran", { waitMs: 0 })).rejects.toThrow(
      new RegExp(`is locked by process ${process.ppid} on .* since 2026-01-01T00:00:00.000Z`),
    );
  });

  it("takes over a lock left empty by a build killed between creating it and writing its PID", async () => {
    const d = await dir();
    const file = path.join(d, LOCK_FILE);
    // Killed right after the exclusive create, as an OOM kill or a power cut can take it.
    const killed = `require("node:fs").openSync(${JSON.stringify(file)}, "wx"); process.kill(process.pid, "SIGKILL");`;
    expect(spawnSync(process.execPath, ["-e", killed]).signal).toBe("SIGKILL");
    expect(await readFile(file, "utf8")).toBe("");
    // A holder fills its lock in at once; one still empty a minute on was left by a crash.
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(file, minuteAgo, minuteAgo);
    expect(await withLogLock(d, async () => "ran", { waitMs: 2_000 })).toBe("ran");
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it("takes over the lock of a killed build whose PID a later process has (a restarted container)", async (ctx) => {
    // Each run is PID 1 of a PID namespace of its own, as a container's first process is after each start.
    const ns = ["--pid", "--fork", "--mount-proc", "--kill-child=SIGKILL"];
    if (spawnSync("unshare", [...ns, "true"]).status !== 0) return ctx.skip("unshare cannot make a PID namespace here");
    const d = await dir();
    const lock = path.resolve(import.meta.dirname, "../../../src/io/log-lock.ts");
    const child = `const { withLogLock } = await import(${JSON.stringify(lock)});
      const [d, mode] = process.argv.slice(1);
      const got = await withLogLock(d, async () => {
        console.log("in " + process.pid);
        if (mode === "hold") await new Promise(() => setInterval(() => {}, 1000));
        return "ran";
      }, { waitMs: 1_000 }).catch((err) => err.message);
      console.log(got);`;
    const run = (mode: string) =>
      spawn("unshare", [...ns, process.execPath, "--input-type=module", "-e", child, d, mode], { stdio: "pipe" });
    const holder = run("hold");
    await new Promise<void>((resolve) => holder.stdout.on("data", (b: Buffer) => b.includes("in 1") && resolve()));
    // SIGKILL, as an OOM kill or a container stop takes it: the lock stays, naming PID 1.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.on("exit", resolve));
    expect((await readFile(path.join(d, LOCK_FILE), "utf8")).split(/\s/)[0]).toBe("1");
    const next = run("once");
    let out = "";
    next.stdout.on("data", (b: Buffer) => {
      out += b;
    });
    await new Promise((resolve) => next.on("exit", resolve));
    expect(out).toBe("in 1\nran\n");
  }, 30_000);

  it("lets one process at a time in when several take over a stale lock at the same moment", async () => {
    const lock = path.resolve(import.meta.dirname, "../../../src/io/log-lock.ts");
    // Each child waits for the same instant, takes the lock and notes when it is in and out.
    const child = `const { withLogLock } = await import(${JSON.stringify(lock)});
      const [d, at, trace] = process.argv.slice(1);
      const { appendFileSync } = await import("node:fs");
      await new Promise((r) => setTimeout(r, Number(at) - Date.now()));
      await withLogLock(d, async () => {
        appendFileSync(trace, "in " + process.pid + "\\n");
        await new Promise((r) => setTimeout(r, 150));
        appendFileSync(trace, "out " + process.pid + "\\n");
      });`;
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid as number;
    for (let round = 0; round < 3; round++) {
      const d = await dir();
      const trace = path.join(d, "trace");
      await writeFile(path.join(d, LOCK_FILE), `${dead}\n${hostname()}\n2026-01-01T00:00:00.000Z\n`);
      const at = String(Date.now() + 1500);
      const runs = Array.from({ length: 3 }, () => {
        const p = spawn(process.execPath, ["--input-type=module", "-e", child, d, at, trace], { stdio: "inherit" });
        return new Promise((resolve) => p.on("exit", resolve));
      });
      expect(await Promise.all(runs)).toEqual([0, 0, 0]);
      const lines = (await readFile(trace, "utf8")).trim().split("\n");
      expect(lines).toHaveLength(6);
      // Never two inside at once: every "in" is followed by the same process's "out".
      for (let i = 0; i < 6; i += 2) expect(lines[i + 1]).toBe(lines[i]?.replace("in", "out"));
    }
  }, 30_000);
});
