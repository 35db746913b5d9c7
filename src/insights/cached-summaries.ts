import type { Business } from "../content/records.ts";
import { compact, PackIndex, PackWriter, packsIn, sweepTemporary } from "../io/pack-file.ts";
import type { ReviewInput } from "./annotate.ts";
import { type PoolOptions, summariseInParallel } from "./annotation-pool.ts";
import { contextKey, summaryKey } from "./annotation-store.ts";
import type { InsightsContent } from "./content-schema.ts";
import type { Analyzer } from "./nlp.ts";
import { createSummariser, decodeSummary, encodeSummary, type Summariser } from "./review-summary.ts";

export interface CachedSummaries {
  /** Each review's summary: read from the cache, or made here (and stored) when missing or damaged. */
  summarise: Summariser;
  /** After the pass: stores what was made, and prunes the cache to the reviews summarised once enough are stale (`compact`). */
  finish(): void;
  /** Instead of `finish` when the build failed: drops what this pass would have stored. */
  abort(): void;
}

export interface CacheInput {
  /** The cache folder (`annotationDir`). */
  dir: string;
  content: InsightsContent;
  business: Business;
  reviews: readonly ReviewInput[];
  /** The build's analyser, made only if some review must be analysed. */
  own: () => Analyzer;
  /** Project root, whose sources identify the analysing code; default the working folder. */
  root?: string;
}

/**
 * The build's source of review summaries (see annotation-store.ts): reviews missing from the cache
 * are first analysed on every core when there are many, then every summary is read back during the
 * build's single pass. When the code cannot be identified nothing is cached.
 */
export async function cachedSummaries(input: CacheInput, pool: PoolOptions = {}): Promise<CachedSummaries> {
  const { dir, content, business, reviews, own } = input;
  const context = contextKey(content, business, input.root);
  let made: Summariser | undefined;
  const make: Summariser = (review) => {
    made ??= createSummariser(content, business, own());
    return made(review);
  };
  if (context === undefined) return { summarise: make, finish() {}, abort() {} };

  sweepTemporary(dir);
  const old = new PackIndex(dir);
  const keys = new Map<ReviewInput, string>();
  const todo = new Map<string, ReviewInput>();
  for (const review of reviews) {
    const key = summaryKey(context, review);
    keys.set(review, key);
    // Only what the annotation reads crosses to a worker: whole records would be copied there.
    if (!old.has(key)) todo.set(key, slim(review));
  }
  const pooled =
    todo.size === 0 ? 0 : await summariseInParallel({ dir, content, business, items: [...todo] }, { own, ...pool });
  // The packs the pool wrote: every file now in the folder that was not read above.
  const filled =
    pooled > 0
      ? new PackIndex(
          dir,
          packsIn(dir).filter((f) => !old.files.includes(f)),
        )
      : undefined;
  const indexes = filled ? [filled, old] : [old];

  const used = new Set<string>();
  // The build's one string per aspect and entity that counted sentences name.
  const names = new Map<string, string>();
  const name = (s: string) => {
    const own = names.get(s);
    if (own !== undefined) return own;
    names.set(s, s);
    return s;
  };
  let writer: PackWriter | undefined;
  // A damaged entry is stored again, and only a compaction makes the new line the one read.
  let damaged = false;
  return {
    summarise(review) {
      const key = keys.get(review) ?? summaryKey(context, review);
      used.add(key);
      for (const index of indexes) {
        const json = index.get(key);
        if (json === undefined) continue;
        try {
          return decodeSummary(json, name);
        } catch {
          // A damaged entry is analysed again and stored below.
          damaged = true;
        }
      }
      const summary = make(review);
      writer ??= new PackWriter(dir);
      writer.add(key, encodeSummary(summary));
      return summary;
    },
    finish() {
      writer?.close();
      compact(indexes, used, damaged);
    },
    abort() {
      writer?.abort();
    },
  };
}

function slim(r: ReviewInput): ReviewInput {
  const { id, title, text, rating, technicians, services, service_areas } = r;
  return { id, title, text, rating, technicians, services, service_areas };
}
