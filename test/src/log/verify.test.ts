import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commitLogDir, folderReader } from "../../../src/io/log-dir.ts";
import { encodeBundle, encodeEntry } from "../../../src/log/entries.ts";
import { signNote } from "../../../src/log/note.ts";
import { generateKeyPair, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, signedCheckpoint } from "../../../src/log/tree.ts";
import { verifyLog } from "../../../src/log/verify.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/** The monitor's check of a log's files (`npm run log:verify`), over a folder in tlog-tiles layout. */
const ORIGIN = "reviews.test/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(3));
const temp = tempFolders();

async function logOf(n: number): Promise<string> {
  const d = await temp.make("pr-verify-");
  const entries = Array.from({ length: n }, (_, i) =>
    encodeEntry({ event: "published", id: `2026-01-01-r${i}`, logged: "2026-01-02", commitment: `${"A".repeat(43)}=` }),
  );
  const tree = appendEntries(EMPTY_LOG, entries);
  await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), { note: undefined, size: 0 });
  return d;
}

describe("a log's files checked by the monitor (verify.ts)", () => {
  it("accepts the log a build commits, and names a changed or missing hash tile by its full address", async () => {
    const d = await logOf(300);
    expect((await verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).checkpoint.size).toBe(300);
    await writeFile(path.join(d, "tile/1/000.p/1"), Buffer.alloc(32));
    await expect(verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      `${d}/tile/1/000.p/1 does not hold the hashes of the entries it covers`,
    );
    await rm(path.join(d, "tile/1/000.p/1"));
    await expect(verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      `${d}/tile/1/000.p/1 is missing (and so is tile/1/000), but the checkpoint says the log needs it`,
    );
  });
});

describe("a signed checkpoint whose size the tiles do not back (verify.ts, read.ts)", () => {
  it("fails at the first missing entry bundle, without listing every tile of the claimed size first", async () => {
    const d = await logOf(3);
    const text = `${ORIGIN}\n${Number.MAX_SAFE_INTEGER}\n${Buffer.alloc(32).toString("base64")}\n`;
    await writeFile(path.join(d, "checkpoint"), signNote(text, [signerFromKey(KEY.skey)]));
    await expect(verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      `${d}/tile/entries/000 is missing, but the checkpoint says the log has ${Number.MAX_SAFE_INTEGER} entries`,
    );
  });
});

describe("a log whose days go back (verify.ts)", () => {
  it("fails, naming the entry logged on a day before the one ahead of it: a backdated entry", async () => {
    const d = await temp.make("pr-verify-");
    const commitment = `${"A".repeat(43)}=`;
    const entries = ["2026-01-03", "2026-01-05", "2026-01-04"].map((logged, i) =>
      encodeEntry({ event: "published", id: `2026-01-01-r${i}`, logged, commitment }),
    );
    const tree = appendEntries(EMPTY_LOG, entries);
    await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), { note: undefined, size: 0 });
    await expect(verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      "log entry 2 (2026-01-01-r2) was logged on 2026-01-04, before entry 1 (2026-01-05): a log's days never go back, so it was backdated",
    );
  });
});

describe("a log whose events are not its reviews' history (verify.ts, history.ts)", () => {
  const commitment = `${"A".repeat(43)}=`;
  const on = (event: "published" | "amended" | "restored", id: string) =>
    ({ event, id, logged: "2026-01-02", commitment }) as const;
  const off = (id: string, date = "2026-01-01") =>
    ({ event: "withdrawn", id, reason: "author-request", date, logged: "2026-01-02" }) as const;
  const A = "2026-01-01-ana";
  const B = "2026-01-01-bo";

  async function verifyEntries(entries: Parameters<typeof encodeEntry>[0][]) {
    const d = await temp.make("pr-verify-");
    const tree = appendEntries(EMPTY_LOG, entries.map(encodeEntry));
    await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), { note: undefined, size: 0 });
    return verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) });
  }

  it("accepts every history a build logs, an older log's restored first appearance among them", async () => {
    const history = [on("published", A), on("amended", A), off(A), off(A, "2026-01-02"), on("restored", A)];
    // Withdrawn before it was ever listed: published then; an older log wrote restored.
    const first = [off(B), on("published", B), on("amended", B)];
    const older = [off("2026-01-01-cy"), on("restored", "2026-01-01-cy")];
    expect((await verifyEntries([...history, ...first, ...older])).entries).toHaveLength(10);
  });

  it("fails a change to a listed review logged as a new publication, and each event its review's history does not allow", async () => {
    const cases: [Parameters<typeof encodeEntry>[0][], string][] = [
      [
        [on("published", A), on("published", A)],
        `log entry 1 (${A}) is logged as published, but the review was on the list already (entry 0 is published): a change is logged as amended, a return after a withdrawal as restored`,
      ],
      [
        [on("published", A), off(A), on("published", A)],
        `log entry 2 (${A}) is logged as published, but the review was on the list already (entry 1 is withdrawn): a change is logged as amended, a return after a withdrawal as restored`,
      ],
      [
        [on("amended", A)],
        `log entry 0 (${A}) is logged as amended, but the review is not on the list (it has no entry before)`,
      ],
      [
        [on("published", A), off(A), on("amended", A)],
        `log entry 2 (${A}) is logged as amended, but the review is not on the list (entry 1 is withdrawn)`,
      ],
      [
        [on("published", A), on("restored", A)],
        `log entry 1 (${A}) is logged as restored, but the review was not withdrawn (entry 0 is published)`,
      ],
      [
        [on("published", A), off(A), off(A)],
        `log entry 2 (${A}) is logged as withdrawn again, with the reason and date of entry 1`,
      ],
    ];
    for (const [entries, says] of cases) await expect(verifyEntries(entries)).rejects.toThrow(says);
  });
});

describe("an entry written two ways at once (verify.ts, entries.ts)", () => {
  it("fails an entry that holds a member twice, or is spaced or escaped otherwise than the log writes it", async () => {
    const commitment = `${"A".repeat(43)}=`;
    const good = encodeEntry({ event: "published", id: "2026-01-01-ana", logged: "2026-01-02", commitment });
    // JSON.parse keeps the last "id", a first-wins reader the first: one signed entry, two reviews.
    const twice = Buffer.from(
      String(good).replace('"id":"2026-01-01-ana"', '"id":"2026-01-01-bo","id":"2026-01-01-ana"'),
    );
    for (const entry of [
      twice,
      Buffer.from(String(good).replace(",", ", ")),
      Buffer.from(String(good).replace("a", "\\u0061")),
    ]) {
      const d = await temp.make("pr-verify-");
      const tree = appendEntries(EMPTY_LOG, [good, entry]);
      await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), {
        note: undefined,
        size: 0,
      });
      await expect(verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) }), String(entry)).rejects.toThrow(
        "log entry 1 is not an entry of this log (its bytes are not the entry as this log writes it",
      );
    }
  });
});

describe("the partial tiles of the checkpoint a monitor saw last (verify.ts)", () => {
  const entry = (i: number) =>
    encodeEntry({ event: "published", id: `2026-01-01-r${i}`, logged: "2026-01-02", commitment: `${"A".repeat(43)}=` });

  /** A log committed at 5 entries, then at `size`: what a monitor that saw the first checkpoint reads next. */
  async function grown(size: number) {
    const d = await temp.make("pr-verify-");
    const signer = signerFromKey(KEY.skey);
    const first = appendEntries(
      EMPTY_LOG,
      Array.from({ length: 5 }, (_, i) => entry(i)),
    );
    await commitLogDir(d, first, signedCheckpoint(first, ORIGIN, signer), { note: undefined, size: 0 });
    const seen = (await verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).seen;
    const note = await readFile(path.join(d, "checkpoint"));
    const tree = appendEntries(
      first,
      Array.from({ length: size - 5 }, (_, i) => entry(5 + i)),
    );
    await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signer), { note, size: 5 });
    const verify = () => verifyLog(folderReader(d), KEY.vkey, { previous: seen, now: new Date(0) });
    return { d, verify };
  }

  it("fails an older checkpoint's partial tile, hash tile or entry bundle, that disagrees with the tile it is the start of", async () => {
    const { d, verify } = await grown(10);
    expect((await verify()).checkpoint.size).toBe(10);
    const was = "the checkpoint of size 5 seen on 1970-01-01";
    const hashes = path.join(d, "tile/0/000.p/5");
    const bytes = await readFile(hashes);
    await writeFile(hashes, Buffer.concat([Buffer.alloc(32), bytes.subarray(32)]));
    await expect(verify()).rejects.toThrow(
      `${d}/tile/0/000.p/5 is a partial tile of ${was}, but does not hold the start of the tile the log has now (tile/0/000.p/10): a reader holding that checkpoint is shown another log`,
    );
    await writeFile(hashes, bytes);
    await writeFile(
      path.join(d, "tile/entries/000.p/5"),
      encodeBundle([entry(0), entry(1), entry(2), entry(4), entry(3)]),
    );
    await expect(verify()).rejects.toThrow(
      `${d}/tile/entries/000.p/5 is a partial tile of ${was}, but does not hold the start of the tile the log has now (tile/entries/000.p/10)`,
    );
  });

  it("accepts an older partial tile deleted once the full tile exists, but not one served that disagrees with it", async () => {
    const { d, verify } = await grown(300);
    await rm(path.join(d, "tile/entries/000.p/5"));
    expect((await verify()).checkpoint.size).toBe(300);
    await writeFile(path.join(d, "tile/0/000.p/5"), Buffer.alloc(5 * 32));
    await expect(verify()).rejects.toThrow(
      `${d}/tile/0/000.p/5 is a partial tile of the checkpoint of size 5 seen on 1970-01-01, but does not hold the start of the tile the log has now (tile/0/000)`,
    );
  });
});

describe("a log rolled back to a checkpoint older than the one a monitor saw (verify.ts)", () => {
  it("says so before reading a tile, though the older checkpoint's partial tiles are gone", async () => {
    const d = await temp.make("pr-verify-");
    const signer = signerFromKey(KEY.skey);
    const entry = (i: number) =>
      encodeEntry({
        event: "published",
        id: `2026-01-01-r${i}`,
        logged: "2026-01-02",
        commitment: `${"A".repeat(43)}=`,
      });
    const first = appendEntries(
      EMPTY_LOG,
      Array.from({ length: 5 }, (_, i) => entry(i)),
    );
    await commitLogDir(d, first, signedCheckpoint(first, ORIGIN, signer), { note: undefined, size: 0 });
    const old = await readFile(path.join(d, "checkpoint"));
    const tree = appendEntries(
      first,
      Array.from({ length: 295 }, (_, i) => entry(5 + i)),
    );
    await commitLogDir(d, tree, signedCheckpoint(tree, ORIGIN, signer), { note: old, size: 5 });
    const seen = (await verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).seen;
    // The old checkpoint served again; its partial tiles went once the full ones existed.
    await writeFile(path.join(d, "checkpoint"), old);
    await rm(path.join(d, "tile/entries/000.p"), { recursive: true });
    await rm(path.join(d, "tile/0/000.p"), { recursive: true });
    const read: string[] = [];
    const reader = {
      where: d,
      read: (p: string) => {
        read.push(p);
        return folderReader(d).read(p);
      },
    };
    await expect(verifyLog(reader, KEY.vkey, { previous: seen, now: new Date(0) })).rejects.toThrow(
      "the log has 5 entries: not an extension of the checkpoint of size 300 seen on 1970-01-01, which had more",
    );
    expect(read).toEqual(["checkpoint"]);
  });
});

describe("a log that forked from the checkpoint a monitor saw (verify.ts)", () => {
  it("names the sizes and both roots, at the same size and at a larger one", async () => {
    const signer = signerFromKey(KEY.skey);
    const entry = (id: string) =>
      encodeEntry({ event: "published", id, logged: "2026-01-02", commitment: `${"A".repeat(43)}=` });
    const common = appendEntries(EMPTY_LOG, [entry("2026-01-01-a"), entry("2026-01-01-b")]);
    // Two builds continued the same published checkpoint, each from its own LOG_DIR.
    const seenLog = appendEntries(common, [entry("2026-01-01-c")]);
    const d = await temp.make("pr-verify-");
    await commitLogDir(d, seenLog, signedCheckpoint(seenLog, ORIGIN, signer), { note: undefined, size: 0 });
    const seen = (await verifyLog(folderReader(d), KEY.vkey, { now: new Date(0) })).seen;
    for (const other of [["2026-01-01-x"], ["2026-01-01-x", "2026-01-01-y"]]) {
      const forked = appendEntries(common, other.map(entry));
      const f = await temp.make("pr-verify-");
      await commitLogDir(f, forked, signedCheckpoint(forked, ORIGIN, signer), { note: undefined, size: 0 });
      const root = (await verifyLog(folderReader(f), KEY.vkey, { now: new Date(0) })).seen.root;
      await expect(verifyLog(folderReader(f), KEY.vkey, { previous: seen, now: new Date(0) })).rejects.toThrow(
        `the log of size ${forked.entries.length} (root ${root}) is not an extension of the checkpoint of size 3 seen on 1970-01-01 (root ${seen.root}): the log forked (two builds appended to one checkpoint, and both were published) or its history was rewritten`,
      );
    }
  });
});
