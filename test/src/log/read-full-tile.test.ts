import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpReader } from "../../../src/io/log-http.ts";
import { encodeEntry } from "../../../src/log/entries.ts";
import { generateKeyPair, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, signedCheckpoint, tileFiles } from "../../../src/log/tree.ts";
import { verifyLog } from "../../../src/log/verify.ts";

/**
 * tlog-tiles: a log MAY delete a partial tile once the full tile is available, and a client MAY
 * fetch the full tile as a fallback. A monitor that read a checkpoint of 300 entries just before
 * the log grew to 512 (a CDN keeps the checkpoint for seconds) finds the partial tiles of 300 gone.
 */
const ORIGIN = "reviews.test/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(5));
const entry = (i: number) =>
  encodeEntry({ event: "published", id: `2026-01-01-r${i}`, logged: "2026-01-02", commitment: `${"A".repeat(43)}=` });
const entries = Array.from({ length: 512 }, (_, i) => entry(i));
const at300 = appendEntries(EMPTY_LOG, entries.slice(0, 300));
const at512 = appendEntries(at300, entries.slice(300));

const served = new Map<string, Uint8Array | string>();
const asked: string[] = [];
const server = createServer((req, res) => {
  const rel = (req.url ?? "").replace(/^\/log\//, "");
  asked.push(rel);
  const body = served.get(rel);
  res.writeHead(body === undefined ? 404 : 200).end(body);
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/log`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The log at 512 entries, with the checkpoint of 300 and the partial tiles still partial at 512. */
function serveGrownLog(change: (rel: string, bytes: Uint8Array) => Uint8Array = (_, b) => b) {
  served.clear();
  asked.length = 0;
  for (const [rel, bytes] of tileFiles(at512)) served.set(rel, change(rel, bytes));
  // The level-1 tile is partial at 512 too, so the log keeps serving its width of 300.
  for (const [rel, bytes] of tileFiles(at300)) if (rel.startsWith("tile/1/")) served.set(rel, bytes);
  served.set("checkpoint", signedCheckpoint(at300, ORIGIN, signerFromKey(KEY.skey)));
}

describe("a partial tile the log deleted once its full tile existed (read.ts, verify.ts)", () => {
  it("is read from the start of the full tile, over HTTP", async () => {
    serveGrownLog();
    const verified = await verifyLog(httpReader(base), KEY.vkey, { now: new Date(0) });
    expect(verified.checkpoint.size).toBe(300);
    expect(verified.entries.map((e) => e.id)).toEqual(Array.from({ length: 300 }, (_, i) => `2026-01-01-r${i}`));
    for (const partial of ["tile/0/001.p/44", "tile/entries/001.p/44"]) {
      expect(asked).toContain(partial);
      expect(asked).toContain(partial.replace(".p/44", ""));
    }
  });

  it("fails naming the full tile read in its place when its start is not the tile the checkpoint needs", async () => {
    serveGrownLog((rel, bytes) => (rel === "tile/0/001" ? Buffer.alloc(bytes.length, 7) : bytes));
    await expect(verifyLog(httpReader(base), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      `${base}/tile/0/001 (read in place of tile/0/001.p/44, which is missing) does not hold the hashes of the entries it covers`,
    );
  });

  it("fails naming both when neither the partial tile nor its full tile is served", async () => {
    serveGrownLog();
    served.delete("tile/entries/001");
    await expect(verifyLog(httpReader(base), KEY.vkey, { now: new Date(0) })).rejects.toThrow(
      `${base}/tile/entries/001.p/44 is missing (and so is tile/entries/001), but the checkpoint says the log has 300 entries`,
    );
  });
});
