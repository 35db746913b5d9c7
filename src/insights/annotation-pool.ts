import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Business } from "../content/records.ts";
import { PackWriter, writing } from "../io/pack-file.ts";
import { workerResult } from "../io/worker-result.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";
import type { Analyzer } from "./nlp.ts";
import { createSummariser, encodeSummary } from "./review-summary.ts";

/**
 * Fills the analysis cache for many reviews on every core before the build's own single-threaded
 * pass reads it back. Each worker thread loads its own wink model (about half a second and 100 MB
 * or more), so below `MIN_REVIEWS` reviews to analyse the build does the work itself, and when the
 * build passes the analyser it has loaded anyway (`own`), its own thread takes one share: one model
 * fewer in memory for the same number of busy cores. Every thread writes its own pack.
 */
const MIN_REVIEWS = 750;

/** The worker's source, from the project root: the build bundles this module, so it has no path of its own. */
const WORKER = path.resolve("src/insights/annotation-worker.ts");

export interface PoolOptions {
  /** Below this many reviews to analyse, nothing is done here. */
  minReviews?: number;
  /** Threads to analyse on, the build's own included when `own` is given; default one per core, at most 8. */
  threads?: number;
  /** The build's analyser, made on first use (after the workers have started loading theirs). */
  own?: () => Analyzer;
}

export interface PoolInput {
  dir: string;
  content: InsightsContent;
  business: Business;
  /** Reviews to analyse, each under its cache key (see annotation-store.ts), each key once. */
  items: [key: string, review: ReviewInput][];
}

/** Returns how many reviews were analysed and written to `dir`. */
export async function summariseInParallel(input: PoolInput, opts: PoolOptions = {}): Promise<number> {
  const { dir, content, business, items } = input;
  const threads = opts.threads ?? Math.min(availableParallelism(), 8);
  if (items.length < (opts.minReviews ?? MIN_REVIEWS) || threads < 2 || !existsSync(WORKER)) return 0;
  const shares = Array.from({ length: threads }, (_, w) => items.filter((_, i) => i % threads === w));
  const ownShare = opts.own ? shares.pop() : undefined;
  const counts = shares.map((share) =>
    workerResult<number>(WORKER, { dir, content, business, items: share }, "review analysis worker"),
  );
  const done = Promise.all(counts);
  let own = 0;
  if (ownShare && opts.own) {
    // Synchronous on purpose: the workers run on their own threads meanwhile.
    const summarise = createSummariser(content, business, opts.own());
    const pack = new PackWriter(dir);
    try {
      writing(pack, () => {
        for (const [key, review] of ownShare) pack.add(key, encodeSummary(summarise(review)));
      });
    } catch (err) {
      // The build fails with this error; the workers' outcome no longer matters.
      done.catch(() => undefined);
      throw err;
    }
    own = ownShare.length;
  }
  return (await done).reduce((a, b) => a + b, own);
}
