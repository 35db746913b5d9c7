import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitLogDir } from "../../../src/io/log-dir.ts";
import { keyOf } from "../../../src/io/log-key.ts";
import { updateLog } from "../../../src/io/review-log.ts";
import { generateKeyPair, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, signedCheckpoint } from "../../../src/log/tree.ts";

const temp: string[] = [];
afterAll(() => Promise.all(temp.map((d) => rm(d, { recursive: true, force: true }))));

const ORIGIN = "localhost:4321/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(8));

describe("a build's update of the log (review-log.ts)", () => {
  it("refuses a LOG_DIR of the earlier entry format, saying what to do, and leaves no lock behind", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pr-old-log-"));
    temp.push(dir);
    const old = appendEntries(EMPTY_LOG, [Buffer.from('{"event":"published","id":"2024-01-01-a","review":{}}')]);
    await commitLogDir(dir, old, signedCheckpoint(old, ORIGIN, signerFromKey(KEY.skey)), { note: undefined, size: 0 });
    await expect(
      updateLog({
        dir,
        origin: ORIGIN,
        key: keyOf(KEY.skey, ORIGIN, "a test key"),
        // Port 9 (discard): no published log to compare with.
        config: { BASE_URL: "http://127.0.0.1:9", LOG_NEW: false, CONTENT_DIR: dir },
        content: { reviews: [], withdrawn: [] },
        today: "2026-11-27",
        warn: () => {},
      }),
    ).rejects.toThrow(/log entry 0 is not an entry of this log.*start a new log: move the old log's folder aside/);
    expect(await readdir(dir)).not.toContain(".lock");
  });
});
