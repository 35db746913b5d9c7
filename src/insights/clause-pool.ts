import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { clauseKey, encodeClauses, hasClauses, writeClauses } from "./clause-store.ts";
import type { Analyzer } from "./nlp.ts";

/**
 * Fills the analysis cache for `texts` on every core before the build's own single-threaded pass
 * reads it back. Each worker thread loads its own wink model (about half a second and 100 MB or
 * more), so below `MIN_TEXTS` texts to analyse the build does the work itself, and when the build
 * passes the analyser it has loaded anyway (`own`), its own thread takes one share: one model
 * fewer in memory for the same number of busy cores.
 */
const MIN_TEXTS = 1500;

/** The worker's source, from the project root: the build bundles this module, so it has no path of its own. */
const WORKER = path.resolve("src/insights/clause-worker.ts");

export interface PoolOptions {
  /** Below this many texts to analyse, nothing is done here. */
  minTexts?: number;
  /** Threads to analyse on, the build's own included when `own` is given; default one per core, at most 8. */
  threads?: number;
  /** The build's analyser, made on first use (after the workers have started loading theirs). */
  own?: () => Analyzer;
}

/** Returns how many texts were analysed and written to `dir`. */
export async function analyseInParallel(dir: string, texts: Iterable<string>, opts: PoolOptions = {}): Promise<number> {
  const todo = [...new Set(texts)].filter((t) => !hasClauses(dir, t));
  const threads = opts.threads ?? Math.min(availableParallelism(), 8);
  if (todo.length < (opts.minTexts ?? MIN_TEXTS) || threads < 2 || !existsSync(WORKER)) return 0;
  const shares = Array.from({ length: threads }, (_, w) => todo.filter((_, i) => i % threads === w));
  const ownShare = opts.own ? shares.pop() : undefined;
  const counts = shares.map(
    (share) =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(WORKER, { workerData: { dir, texts: share } });
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.once("exit", (code) => {
          if (code !== 0) reject(new Error(`text analysis worker exited with code ${code}`));
        });
      }),
  );
  const done = Promise.all(counts);
  let own = 0;
  if (ownShare && opts.own) {
    // Synchronous on purpose: the workers run on their own threads meanwhile.
    const analyzer = opts.own();
    for (const text of ownShare) writeClauses(dir, clauseKey(text), encodeClauses(analyzer.clauses(text, 0)));
    own = ownShare.length;
  }
  return (await done).reduce((a, b) => a + b, own);
}
