import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitLogDir, LogStateError, readLogDir } from "../../../src/io/log-dir.ts";
import { generateKeyPair, parseVerifierKey, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, rootOf, signedCheckpoint, tileFiles } from "../../../src/log/tree.ts";

const ORIGIN = "reviews.test/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(1));
const signer = signerFromKey(KEY.skey);
const verifier = parseVerifierKey(KEY.vkey);
const entries = (n: number, from = 0) => Array.from({ length: n }, (_, i) => Buffer.from(`{"entry":${from + i}}`));

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));
async function dir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "pr-log-dir-"));
  temp.push(d);
  return d;
}

async function commit(d: string, n: number, from = EMPTY_LOG) {
  const tree = appendEntries(from, entries(n, from.entries.length));
  await commitLogDir(d, tree, from.entries.length, signedCheckpoint(tree, ORIGIN, signer));
  return tree;
}

describe("LOG_DIR (log-dir.ts)", () => {
  it("reads an empty folder as a new log, and reads back what was committed, across tile boundaries", async () => {
    const d = await dir();
    expect(await readLogDir(path.join(d, "missing"), { origin: ORIGIN, verifier })).toEqual(EMPTY_LOG);
    const first = await commit(d, 300);
    const second = await commit(d, 250, first);
    const read = await readLogDir(d, { origin: ORIGIN, verifier });
    expect(read.entries.length).toBe(550);
    expect(Buffer.from(rootOf(read))).toEqual(Buffer.from(rootOf(second)));
  });

  it("keeps the old log when a commit stops before its checkpoint: extra tiles are ignored, then overwritten", async () => {
    const d = await dir();
    const first = await commit(d, 10);
    // A build that wrote its tiles and died before the checkpoint's rename.
    const abandoned = appendEntries(first, [Buffer.from('{"never":"live"}')]);
    for (const [rel, bytes] of tileFiles(abandoned, 10)) {
      await mkdir(path.dirname(path.join(d, rel)), { recursive: true });
      await writeFile(path.join(d, rel), bytes);
    }
    expect((await readLogDir(d, { origin: ORIGIN, verifier })).entries.length).toBe(10);
    const next = await commit(d, 1, first);
    const read = await readLogDir(d, { origin: ORIGIN, verifier });
    expect(Buffer.from(rootOf(read))).toEqual(Buffer.from(rootOf(next)));
  });

  it("refuses a changed entry, another origin's log and a checkpoint under another key, naming the folder", async () => {
    const d = await dir();
    await commit(d, 5);
    await expect(readLogDir(d, { origin: "elsewhere.test/log", verifier })).rejects.toThrow(
      /is the log of reviews\.test\/log, but this build's log is elsewhere\.test\/log/,
    );
    const other = parseVerifierKey(generateKeyPair(ORIGIN).vkey);
    await expect(readLogDir(d, { origin: ORIGIN, verifier: other })).rejects.toThrow(/A log keeps one key for life/);
    const bundle = path.join(d, "tile/entries/000.p/5");
    await writeFile(
      bundle,
      (await readFile(bundle)).toString("latin1").replace('{"entry":2}', '{"entry":9}'),
      "latin1",
    );
    await expect(readLogDir(d, { origin: ORIGIN, verifier })).rejects.toThrow(LogStateError);
    await expect(readLogDir(d, { origin: ORIGIN, verifier })).rejects.toThrow(/do not hash to the checkpoint's root/);
  });
});
