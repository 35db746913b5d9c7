import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Business } from "../content/records.ts";
import { PackWriter, writing } from "../io/pack-file.ts";
import { shareItems, taken } from "../io/shared-items.ts";
import { workerResult } from "../io/worker-result.ts";
import type { ReviewInput } from "./annotate.ts";
import type { InsightsContent } from "./content-schema.ts";
import type { Analyzer } from "./nlp.ts";
import { createSummariser, encodeSummary } from "./review-summary.ts";

/**
 * Fills the analysis cache for many reviews on every core before the build's own single-threaded
 * pass reads it back. Each worker thread loads its own wink model (about half a second and 100 MB
 * or more), so below `MIN_REVIEWS` reviews to analyse the build does the work itself, and when the
 * build passes the analyser it has loaded anyway (`own`), its own thread works too: one model
 * fewer in memory for the same number of busy cores. The threads take the reviews a run at a time
 * from one shared list (src/io/shared-items.ts) rather than in equal shares: a worker starts a
 * second or more after the build's thread (its modules and its model), and with equal shares the
 * build's thread then waited for it. Every thread writes its own pack.
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
  const shared = shareItems(items);
  const workers = opts.own ? threads - 1 : threads;
  const counts = Array.from({ length: workers }, () =>
    workerResult<number>(WORKER, { dir, content, business, shared }, "review analysis worker"),
  );
  const done = Promise.all(counts);
  let own = 0;
  if (opts.own) {
    // Synchronous on purpose: the workers run on their own threads meanwhile.
    const summarise = createSummariser(content, business, opts.own());
    const pack = new PackWriter(dir);
    try {
      writing(pack, () => {
        for (const i of taken(shared)) {
          const [key, review] = items[i] as [string, ReviewInput];
          pack.add(key, encodeSummary(summarise(review)));
          own++;
        }
      });
    } catch (err) {
      // The build fails with this error; the workers' outcome no longer matters.
      done.catch(() => undefined);
      throw err;
    }
  }
  return (await done).reduce((a, b) => a + b, own);
}
