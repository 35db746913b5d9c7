import { cpSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QUIET_MS, watchContent } from "../../../sidecar/build/content-watcher.ts";

/**
 * The watcher behind npm start's rebuilds, on a real folder: how many rebuilds each kind of save
 * causes. "No further rebuild" is checked after waiting well past the debounce; nothing is timed.
 */

let dir: string;
let watcher: { close(): void } | undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough after the last event for any debounced rebuild to have started. */
const SETTLE_MS = 3 * QUIET_MS.burst;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pr-watch-"));
  mkdirSync(path.join(dir, "reviews", "2025"), { recursive: true });
});

afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Starts watching; `rebuild` may be slow (it gets the call number). */
function watch(rebuild: (n: number) => Promise<void> = async () => {}) {
  const calls = { started: 0, finished: 0, running: 0, maxRunning: 0 };
  watcher = watchContent(dir, async () => {
    calls.running++;
    calls.maxRunning = Math.max(calls.maxRunning, calls.running);
    try {
      await rebuild(++calls.started);
    } finally {
      calls.running--;
      calls.finished++;
    }
  });
  return calls;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await sleep(25);
  }
  throw new Error(`${what}: not within 10 s`);
}

const review = (n: number) => `date: 2025-01-01\nrating: 5\nauthor: A${n}.\ntext: Visit ${n}.\n`;

describe("watchContent", () => {
  it("coalesces many files changing at once (a git checkout) into one rebuild", async () => {
    const calls = watch();
    await sleep(100);
    // In batches, letting the event loop run between them (so events arrive while files are still
    // being written), but each gap far shorter than the debounce, as a checkout writes.
    for (let batch = 0; batch < 10; batch++) {
      for (let i = 0; i < 30; i++) writeFileSync(path.join(dir, "reviews", "2025", `r-${batch}-${i}.yaml`), review(i));
      await new Promise((r) => setImmediate(r));
    }
    await until(() => calls.finished >= 1, "a rebuild");
    await sleep(SETTLE_MS);
    expect(calls.started).toBe(1);
  });

  it("rebuilds once for an atomic save (temporary file renamed over the review) and not for swap files", async () => {
    const file = path.join(dir, "reviews", "2025", "a.yaml");
    writeFileSync(file, review(1));
    const calls = watch();
    await sleep(100);
    // Editors' swap and backup files, alone, are not content.
    writeFileSync(path.join(dir, "reviews", "2025", ".a.yaml.swp"), "x");
    writeFileSync(path.join(dir, "reviews", "2025", "a.yaml~"), review(1));
    await sleep(SETTLE_MS);
    expect(calls.started).toBe(0);
    const temp = path.join(dir, "reviews", "2025", ".a.yaml.tmp-1234");
    writeFileSync(temp, review(2));
    renameSync(temp, file);
    await until(() => calls.finished === 1, "one rebuild");
    await sleep(SETTLE_MS);
    expect(calls.started).toBe(1);
  });

  it("never overlaps rebuilds: changes during one schedule exactly one more", async () => {
    let release: () => void = () => {};
    const calls = watch((n) => (n === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve()));
    await sleep(100);
    writeFileSync(path.join(dir, "reviews", "2025", "first.yaml"), review(1));
    await until(() => calls.started === 1, "the first rebuild");
    for (let i = 0; i < 3; i++) {
      writeFileSync(path.join(dir, "reviews", "2025", `during-${i}.yaml`), review(i));
      await sleep(SETTLE_MS / 3);
    }
    expect(calls.started).toBe(1);
    release();
    await until(() => calls.finished === 2, "the second rebuild");
    await sleep(SETTLE_MS);
    expect(calls.started).toBe(2);
    expect(calls.maxRunning).toBe(1);
  });

  it("watches a folder created after it started (next year's reviews)", async () => {
    const calls = watch();
    await sleep(100);
    mkdirSync(path.join(dir, "reviews", "2026"));
    await until(() => calls.finished === 1, "the rebuild for the new folder");
    writeFileSync(path.join(dir, "reviews", "2026", "new.yaml"), review(1));
    await until(() => calls.finished === 2, "the rebuild for a file in it");
  });

  it("keeps watching when the content folder itself is replaced (moved aside, a copy put in its place)", async () => {
    const content = path.join(dir, "content");
    cpSync(path.join(dir, "reviews"), path.join(content, "reviews"), { recursive: true });
    const calls = { finished: 0 };
    watcher = watchContent(content, async () => {
      calls.finished++;
    });
    await sleep(100);
    renameSync(content, `${content}.old`);
    cpSync(`${content}.old`, content, { recursive: true });
    await until(() => calls.finished >= 1, "the rebuild for the replaced folder");
    await sleep(SETTLE_MS);
    const before = calls.finished;
    writeFileSync(path.join(content, "reviews", "2025", "new.yaml"), review(1));
    await until(() => calls.finished === before + 1, "the rebuild for a file saved in the new folder");
  });
});
