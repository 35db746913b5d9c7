import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { reviewFields } from "../../src/content/dataset.ts";
import { checkContentDir } from "../../src/io/content-check.ts";
import { writeLogFiles } from "../../src/io/log-dir.ts";
import { keyOf } from "../../src/io/log-key.ts";
import { updateLog, withdrawalsOf } from "../../src/io/review-log.ts";
import { logOrigin } from "../../src/log/checkpoint.ts";
import type { LoggedReview } from "../../src/log/entries.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";
import type { Withdrawal } from "../../src/log/plan.ts";
import { BENCH_BASE_URL } from "./astro-build.ts";

/**
 * What the review log adds to a build, timed step by step in this process over the reviews of a
 * real content folder: read and check LOG_DIR, work out the new entries, hash them, sign the
 * checkpoint, write the served copy and commit. Two builds: the first (every review is a new
 * entry, the most hashing and writing) and the next after one edit (LOG_DIR read and checked in
 * full, one entry appended). `run` then divides the larger by the wall time of the build of the
 * same content in the same run.
 */
export async function timeReviewLog(contentDir: string): Promise<{ firstMs: number; nextMs: number; entries: number }> {
  const report = await checkContentDir(contentDir, { now: new Date() });
  if (!report.ok) throw new Error(`${contentDir}: ${report.problems[0]}`);
  const fields = reviewFields(report.content);
  const withdrawn = withdrawalsOf(report.content);
  const origin = logOrigin(BENCH_BASE_URL);
  const key = keyOf(generateKeyPair(origin).skey, origin, "the bench's key");
  const root = await mkdtemp(path.join(os.tmpdir(), "pr-bench-log-"));
  try {
    const logDir = path.join(root, "state");
    const build = async (n: number, reviews: readonly LoggedReview[], w: readonly Withdrawal[]) => {
      const started = performance.now();
      const log = await updateLog({
        dir: logDir,
        origin,
        key,
        config: { BASE_URL: BENCH_BASE_URL, LOG_NEW: true, CONTENT_DIR: contentDir },
        content: { reviews, withdrawn: w },
        today: new Date().toISOString().slice(0, 10),
        warn: () => {},
      });
      const files = { checkpoint: log.checkpoint, key: `${log.vkey}\n` };
      await writeLogFiles(path.join(root, `dist-${n}`, "log"), log.tree, files, log.older);
      return { ms: performance.now() - started, size: log.tree.entries.length };
    };
    const first = await build(1, fields, withdrawn);
    const edited = fields.map((f, i) => (i === 0 ? { ...f, text: `${f.text} (edited)` } : f));
    const next = await build(2, edited, withdrawn);
    return { firstMs: first.ms, nextMs: next.ms, entries: next.size };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
