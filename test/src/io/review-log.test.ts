import { mkdir, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commitLogDir } from "../../../src/io/log-dir.ts";
import { keyOf } from "../../../src/io/log-key.ts";
import { updateLog } from "../../../src/io/review-log.ts";
import { type LoggedReview, loggedReview } from "../../../src/log/entries.ts";
import { generateKeyPair, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, signedCheckpoint } from "../../../src/log/tree.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { reviewRecord } from "../../helpers/review-record.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const ORIGIN = "localhost:4321/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(8));

const review = (i: number): LoggedReview =>
  loggedReview(
    reviewRecord(`2026-04-03-r${i}`, 5, "Fine.", {
      date: "2026-04-03",
      published_at: `2026-04-04T10:${String(i % 60).padStart(2, "0")}:00Z`,
      author: `R ${i}`,
      verification: { method: "invoice", verified_on: "2026-04-03" },
    }),
  );

/** `updateLog` on `dir` for a loopback origin where nothing is listening (port 9, discard). */
const update = (dir: string, reviews: LoggedReview[], warn: (m: string) => void = () => {}) =>
  updateLog({
    dir,
    origin: ORIGIN,
    key: keyOf(KEY.skey, ORIGIN, "a test key"),
    config: { BASE_URL: "http://127.0.0.1:9", LOG_NEW: false, CONTENT_DIR: dir },
    content: { reviews, withdrawn: [] },
    today: "2026-11-27",
    warn,
  });

describe("a build's update of the log (review-log.ts)", () => {
  it("refuses a LOG_DIR of the earlier entry format, saying what to do, and leaves no lock behind", async () => {
    const dir = await temp.make("pr-old-log-");
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

  it("repairs a damaged hash tile of LOG_DIR from the entries, saying so, and serves the same log", async () => {
    const dir = await temp.make("pr-damaged-log-");
    const reviews = Array.from({ length: 130 }, (_, i) => review(i));
    const first = await update(dir, reviews);
    const tile = path.join(dir, "tile/0/000.p/130");
    const good = await readFile(tile);
    expect(good.length).toBe(130 * 32);
    await truncate(tile, 4000);
    const warnings: string[] = [];
    const again = await update(dir, reviews, (m) => warnings.push(m));
    expect(warnings).toEqual([
      `review log: ${tile} held 4000 bytes, not 4160; repaired from the entries, which hash to the signed checkpoint`,
    ]);
    expect((await readFile(tile)).equals(good)).toBe(true);
    expect(again.checkpoint).toBe(first.checkpoint);
    // Nothing else was damaged, so nothing else is said the next time.
    const quiet: string[] = [];
    await update(dir, reviews, (m) => quiet.push(m));
    expect(quiet).toEqual([]);
    expect((await stat(tile)).size).toBe(4160);
  });

  it("refuses a LOG_DIR with tiles but no checkpoint, naming it, and changes nothing in it", async () => {
    const dir = await temp.make("pr-headless-log-");
    await update(
      dir,
      Array.from({ length: 130 }, (_, i) => review(i)),
    );
    await rm(path.join(dir, "checkpoint"));
    const before = await snapshot(dir);
    await expect(
      update(
        dir,
        Array.from({ length: 131 }, (_, i) => review(i + 1000)),
      ),
    ).rejects.toThrow(
      `${dir} has no checkpoint but holds tile: a log whose checkpoint was lost, or a first build's commit interrupted before its checkpoint. Nothing in it was changed.`,
    );
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe("a local preview's LOG_DIR a first commit left without its checkpoint (npm start stopped in its first build)", () => {
  it("is written again when its tiles are exactly this build's, giving the same checkpoint", async () => {
    const dir = await temp.make("pr-interrupted-log-");
    const reviews = Array.from({ length: 130 }, (_, i) => review(i));
    await update(dir, reviews);
    const checkpoint = await readFile(path.join(dir, "checkpoint"), "utf8");
    await rm(path.join(dir, "checkpoint"));
    const again = await update(dir, reviews);
    expect(again.checkpoint).toBe(checkpoint);
    expect(await readFile(path.join(dir, "checkpoint"), "utf8")).toBe(checkpoint);
  });

  it("takes a folder that holds no log's files (lost+found of a fresh volume, .DS_Store) for an empty one", async () => {
    const dir = await temp.make("pr-volume-log-");
    await mkdir(path.join(dir, "lost+found"));
    await writeFile(path.join(dir, ".DS_Store"), "");
    await update(dir, [review(1)]);
    expect(await readFile(path.join(dir, "checkpoint"), "utf8")).toMatch(/^localhost:4321\/log\n1\n/);
  });
});

/** Every file under `dir` (its lock aside) with its bytes, as base64. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  const out: Record<string, string> = {};
  for (const f of files.filter((e) => e.isFile() && !e.name.startsWith(".lock")))
    out[path.relative(dir, path.join(f.parentPath, f.name))] = (
      await readFile(path.join(f.parentPath, f.name))
    ).toString("base64");
  return out;
}

describe("a build whose LOG_DIR cannot be used", () => {
  it("stops naming LOG_DIR and what the system said, with no stack trace, when LOG_DIR is a file", async () => {
    const dir = await temp.make("pr-log-file-");
    const file = path.join(dir, "not-a-folder");
    await writeFile(file, "kept\n");
    const result = await buildSite(FIXTURE, { BASE_URL: "https://reviews.example", LOG_DIR: file, LOG_NEW: "1" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`LOG_DIR (${file})`);
    expect(result.stderr).toContain("EEXIST");
    expect(result.stdout + result.stderr).not.toMatch(/Stack trace:|\n\s+at /);
    expect(await readFile(file, "utf8")).toBe("kept\n");
  }, 300_000); // Waits its turn on the build lock.
});
