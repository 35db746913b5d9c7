import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { hasClauses } from "./clause-store.ts";

/**
 * Fills the analysis cache for `texts` on worker threads, one per core, before the build's own
 * single-threaded pass reads it back. Each worker loads its own wink model (about half a second),
 * so below `MIN_TEXTS` texts to analyse the build does the work itself.
 */
const MIN_TEXTS = 1500;

/** The worker's source, from the project root: the build bundles this module, so it has no path of its own. */
const WORKER = path.resolve("src/insights/clause-worker.ts");

export async function analyseInParallel(
  dir: string,
  texts: Iterable<string>,
  opts: { minTexts?: number; workers?: number } = {},
): Promise<number> {
  const todo = [...new Set(texts)].filter((t) => !hasClauses(dir, t));
  const workers = opts.workers ?? Math.min(availableParallelism(), 8);
  if (todo.length < (opts.minTexts ?? MIN_TEXTS) || workers < 2 || !existsSync(WORKER)) return 0;
  const shares = Array.from({ length: workers }, (_, w) => todo.filter((_, i) => i % workers === w));
  const counts = await Promise.all(
    shares.map(
      (share) =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(WORKER, { workerData: { dir, texts: share } });
          worker.once("message", resolve);
          worker.once("error", reject);
          worker.once("exit", (code) => {
            if (code !== 0) reject(new Error(`text analysis worker exited with code ${code}`));
          });
        }),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}
