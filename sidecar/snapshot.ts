import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { lastModifiedMs } from "../src/lib/dataset.ts";
import { type HeadersManifest, MANIFEST_FILE } from "../src/lib/headers.ts";
import { type ReviewsDataset, ReviewsDatasetSchema } from "../src/lib/records.ts";
import { createSearchIndex, type SearchIndex } from "../src/search/search-index.ts";

/**
 * Everything the dynamic routes need from one build of `dist/`, loaded together so a request never
 * mixes two builds. Immutable once made; a reload makes a new one and swaps the reference.
 */
export interface Snapshot {
  index: SearchIndex;
  manifest: HeadersManifest;
  /** Newest published_at / response date, epoch ms; undefined for an empty dataset. */
  lastModifiedMs?: number;
  /** ETag of `/reviews.json` in this build: identifies the dataset version. */
  version: string;
  /**
   * `chain[k]` hashes the first k reviews (newest first). The body of since/{date} is exactly a
   * prefix of the ordered reviews, so its ETag is `hash(date, chain[k])`: it changes exactly when
   * that body would, and a 304 needs no body at all.
   */
  chain: string[];
  /**
   * `jsonBytes[k]` is the UTF-8 length of the first k reviews' JSON: the length of a since body is
   * known without building it, so whether it is compressed (and so its ETag) is too.
   */
  jsonBytes: Float64Array;
  /** `lastModifiedMs` as an HTTP date, formatted once. */
  lastModified?: string;
}

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

/**
 * Loads `distDir`. With `previous`, a build whose `/reviews.json` is byte-identical (same ETag)
 * keeps the previous index and only takes the new header manifest, so a publish ping or a rebuild
 * that changed no review costs a file read, not an index build (seconds at 100,000 reviews).
 */
export async function loadSnapshot(distDir: string, previous?: Snapshot): Promise<Snapshot> {
  const manifestPath = path.join(distDir, MANIFEST_FILE);
  const reviewsPath = path.join(distDir, "reviews.json");
  let manifest: HeadersManifest;
  let dataset: ReviewsDataset;
  try {
    manifest = JSON.parse(await readFile(manifestPath, "utf8")) as HeadersManifest;
  } catch (err) {
    throw new SnapshotError(`cannot read ${manifestPath} (${(err as Error).message}); run npm run build`);
  }
  if (previous && manifest.files?.["/reviews.json"]?.etag === previous.version) {
    return { ...previous, manifest };
  }
  try {
    const parsed = ReviewsDatasetSchema.safeParse(JSON.parse(await readFile(reviewsPath, "utf8")));
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(`${first?.path.join(".")}: ${first?.message}`);
    }
    dataset = parsed.data;
  } catch (err) {
    throw new SnapshotError(`cannot load ${reviewsPath} (${(err as Error).message}); run npm run build`);
  }
  const version = manifest.files?.["/reviews.json"]?.etag;
  if (!version) throw new SnapshotError(`${manifestPath} has no entry for /reviews.json; run npm run build`);
  const chain: string[] = [""];
  const jsonBytes = new Float64Array(dataset.reviews.length + 1);
  let acc = "";
  dataset.reviews.forEach((r, i) => {
    const json = JSON.stringify(r);
    acc = createHash("sha256").update(acc).update(json).digest("base64url");
    chain.push(acc);
    jsonBytes[i + 1] = (jsonBytes[i] as number) + Buffer.byteLength(json);
  });
  const modified = lastModifiedMs(dataset.reviews);
  return {
    index: createSearchIndex(dataset),
    manifest,
    lastModifiedMs: modified,
    lastModified: modified === undefined ? undefined : new Date(modified).toUTCString(),
    version,
    chain,
    jsonBytes,
  };
}

/**
 * Holds the current snapshot. `reload()` builds the next snapshot beside the current one and swaps
 * it in only when complete; a failed reload keeps serving the last good one.
 */
export class SnapshotStore {
  #current: Snapshot;
  #distDir: string;
  #listeners = new Set<(s: Snapshot) => void>();
  #loading: Promise<Snapshot> | undefined;

  private constructor(distDir: string, first: Snapshot) {
    this.#distDir = distDir;
    this.#current = first;
  }

  static async open(distDir: string): Promise<SnapshotStore> {
    return new SnapshotStore(distDir, await loadSnapshot(distDir));
  }

  get current(): Snapshot {
    return this.#current;
  }

  get distDir(): string {
    return this.#distDir;
  }

  /** Called after each successful swap (static-file caches drop their entries here). */
  onSwap(listener: (s: Snapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Concurrent calls share one load. Throws `SnapshotError` and keeps the old snapshot on failure. */
  reload(): Promise<Snapshot> {
    this.#loading ??= loadSnapshot(this.#distDir, this.#current)
      .then((next) => {
        this.#current = next;
        for (const l of this.#listeners) l(next);
        return next;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }
}
