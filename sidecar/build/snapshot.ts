import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ReviewRecord, ReviewsDataset } from "../../src/content/records.ts";
import {
  contentTypeFor,
  type HeadersManifest,
  HeadersManifestSchema,
  MANIFEST_FILE,
  strongEtag,
} from "../../src/http-headers/manifest.ts";
import { type Insights, InsightsSchema } from "../../src/insights/schema.ts";
import { DistReadError, parseDistJson, readDistFile } from "../../src/io/dist-files.ts";
import { reviewJson } from "../../src/search/result-json.ts";
import { createSearchIndex, type SearchIndex } from "../../src/search/review-index.ts";
import { TOPIC_PATHS } from "../../src/urls.ts";
import { codeSinceMs } from "./code-identity.ts";
import { type PreviousDataset, parseDataset } from "./dataset-parse.ts";
import { ResultStore } from "./result-store.ts";

export type { SnapshotStore } from "./snapshot-store.ts";

/** A topic's representation (`/feed.xml`, `/api/feed.json`, `/reviews.json`) exactly as served. */
export interface TopicContent {
  body: Uint8Array;
  contentType: string;
}

export type SnapshotInsights = { insights: Insights; text: string } | { error: string };

/**
 * Everything the server answers from, for one build: the header manifest, the search index, the
 * hub's topic bytes and the insights, loaded together from one build folder. Immutable once
 * made; a reload makes a new one. Whoever holds a snapshot (a request, a publish) sees one build
 * from start to end, and files it reads lazily come from the same folder, which is kept on disk
 * until no holder remains (see SnapshotStore).
 */
export interface Snapshot {
  /** Real path of the build folder (a versioned folder under `npm start`). */
  dir: string;
  index: SearchIndex;
  manifest: HeadersManifest;
  /**
   * The build's identity: the SHA-256 of its `_headers.json`, which lists every file's ETag, so any
   * changed byte of the site changes it while `version` may not move. Equal on every instance
   * serving the same build (`/healthz`'s `build`, the instances' `live_build` record).
   */
  build: string;
  /** Modification time of `_headers.json` when it was loaded, in ms: a later one there is a newer build. */
  writtenAtMs: number;
  /** When `/reviews.json`'s bytes last changed (its Last-Modified), epoch ms; since/{date} answers carry it. */
  lastModifiedMs?: number;
  /** ETag of `/reviews.json` in this build: the dataset's version, not the build's (`build`). */
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
  /** The WebSub topics of this build, by site path; a topic the build lacks is absent. */
  topics: ReadonlyMap<string, TopicContent>;
  /** `/insights.json`, parsed; or why it is unusable (MCP reports that per call). */
  insights: SnapshotInsights;
  /**
   * Search and since results already computed from `index` (result-store.ts), for both the HTTP
   * routes and the MCP tools. A reload that keeps the index keeps them; a new index gets an
   * empty store, and the old one goes with the old snapshot.
   */
  results: ResultStore;
}

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

const hint = (err: unknown) => new SnapshotError(`${(err as Error).message}; run npm run build`);

async function loadInsights(dir: string, previous: Snapshot | undefined, etag?: string): Promise<SnapshotInsights> {
  if (previous && etag && previous.manifest.files["/insights.json"]?.etag === etag) return previous.insights;
  try {
    const bytes = await readDistFile(dir, "/insights.json");
    const insights = parseDistJson(dir, "/insights.json", bytes, InsightsSchema);
    return { insights, text: Buffer.from(bytes ?? []).toString("utf8") };
  } catch (err) {
    return { error: err instanceof DistReadError ? `${err.message}; run npm run build` : String(err) };
  }
}

const hashBytes = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url");

/** When `dir`'s `_headers.json` was last written (ms), or undefined when it has none. */
export async function manifestWrittenAt(dir: string): Promise<number | undefined> {
  return (await stat(path.join(dir, MANIFEST_FILE)).catch(() => undefined))?.mtimeMs;
}

/** The identity of the build in `dir` (`Snapshot.build`), or undefined when it has no readable manifest. */
export async function buildIn(dir: string): Promise<string | undefined> {
  const bytes = await readDistFile(dir, `/${MANIFEST_FILE}`).catch(() => undefined);
  return bytes === undefined ? undefined : hashBytes(bytes);
}

/**
 * True when `dir` (a real path) still holds the build `snapshot` was loaded from: same folder, same
 * `_headers.json` bytes. Reads one file; any error means "load it and see".
 */
export async function isSameBuild(dir: string, snapshot: Snapshot): Promise<boolean> {
  return dir === snapshot.dir && (await buildIn(dir)) === snapshot.build;
}

/**
 * `Snapshot.chain` and `Snapshot.jsonBytes`, from one serialisation of each review: the same bytes
 * that search and since bodies are later joined from (`reviewJson`), so none is serialised twice.
 */
function hashChain(reviews: readonly ReviewRecord[]): { chain: string[]; jsonBytes: Float64Array } {
  const chain: string[] = [""];
  const jsonBytes = new Float64Array(reviews.length + 1);
  let acc = "";
  reviews.forEach((r, i) => {
    const json = reviewJson(r);
    acc = createHash("sha256").update(acc).update(json).digest("base64url");
    chain.push(acc);
    jsonBytes[i + 1] = (jsonBytes[i] as number) + json.length;
  });
  return { chain, jsonBytes };
}

/**
 * What a snapshot makes of `/reviews.json` alone, made ahead of the build's end (`prepareDataset`).
 * Content-addressed: only a build whose header manifest gives `/reviews.json` this `etag` uses it.
 */
export interface PreparedDataset {
  /** The strong ETag of `body`. */
  etag: string;
  body: Uint8Array;
  index: SearchIndex;
  chain: string[];
  jsonBytes: Float64Array;
}

/** What `parseDataset` may take unchanged reviews from: the snapshot served, when it has its dataset's bytes. */
function previousDataset(s: Snapshot | undefined): PreviousDataset | undefined {
  const body = s?.topics.get("/reviews.json")?.body;
  return s && body ? { body, dataset: s.index.dataset } : undefined;
}

/**
 * The search index and the since/{date} chain of a build's `/reviews.json` bytes, the reviews
 * unchanged since `previous` taken from it (`parseDataset`).
 */
function datasetParts(
  dir: string,
  body: Uint8Array | undefined,
  previous: Snapshot | undefined,
): Pick<Snapshot, "index" | "chain" | "jsonBytes"> {
  let dataset: ReviewsDataset;
  try {
    dataset = parseDataset(dir, body, previousDataset(previous));
  } catch (err) {
    throw hint(err);
  }
  return { index: createSearchIndex(dataset), ...hashChain(dataset.reviews) };
}

/**
 * Reads `/reviews.json` of a build that is still finishing (the build says when it has written the
 * file's final bytes: src/integrations/reviews-json.ts), so the index is built while the build
 * writes its review log and header manifest rather than after (docs/benchmarks-log.md). Reviews
 * unchanged since `previous` are taken from it (`parseDataset`). `file` is that build folder's
 * `reviews.json`.
 */
export async function prepareDataset(file: string, previous?: Snapshot): Promise<PreparedDataset> {
  const body = await readFile(file);
  return { etag: strongEtag(body), body, ...datasetParts(path.dirname(file), body, previous) };
}

/**
 * Loads the build in `dir` (a real path). With `previous`, a build whose `/reviews.json` has the
 * same ETag keeps the previous index (and its results), so a publish ping or a rebuild that
 * changed no review costs a few file reads, not an index build (seconds at 100,000 reviews).
 * `resultBytes` bounds the snapshot's result store (RESPONSE_CACHE_MB in bytes; 0 keeps nothing);
 * by default the previous snapshot's bound. A `prepared` dataset whose ETag is the manifest's for
 * `/reviews.json` stands for that file: its bytes, index and chain are used as they are.
 */
export async function loadSnapshot(
  dir: string,
  previous?: Snapshot,
  resultBytes = previous?.results.maxBytes ?? 0,
  prepared?: PreparedDataset,
): Promise<Snapshot> {
  let manifest: HeadersManifest;
  let build: string;
  // Read before the bytes: a manifest rewritten meanwhile then looks newer, and is looked at again.
  const writtenAtMs = (await manifestWrittenAt(dir)) ?? 0;
  try {
    const bytes = await readDistFile(dir, `/${MANIFEST_FILE}`);
    manifest = parseDistJson(dir, `/${MANIFEST_FILE}`, bytes, HeadersManifestSchema);
    build = hashBytes(bytes ?? new Uint8Array());
  } catch (err) {
    throw hint(err);
  }
  const version = manifest.files["/reviews.json"]?.etag;
  if (!version) throw new SnapshotError(`${dir}/_headers.json has no entry for /reviews.json; run npm run build`);

  const ready = prepared?.etag === version ? prepared : undefined;
  const topics = new Map<string, TopicContent>();
  for (const p of TOPIC_PATHS) {
    // The dataset's bytes as the last snapshot or `prepareDataset` has them: their ETag is the manifest's.
    const known =
      p !== "/reviews.json" ? undefined : previous?.version === version ? previous.topics.get(p)?.body : ready?.body;
    const body = known ?? (await readDistFile(dir, p).catch((err) => Promise.reject(hint(err))));
    if (!body) continue;
    // A folder still being copied (a deployment without a symlink swap) can pair one build's
    // manifest with another's file: refuse it, and keep serving the last good snapshot.
    const etag = manifest.files[p]?.etag;
    if (!known && etag && strongEtag(body) !== etag) {
      throw new SnapshotError(`${dir}${p} does not match the ETag in _headers.json; is the build still being written?`);
    }
    topics.set(p, { body, contentType: manifest.files[p]?.content_type ?? contentTypeFor(p) });
  }
  const insights = await loadInsights(dir, previous, manifest.files["/insights.json"]?.etag);
  if (previous && previous.version === version) {
    return { ...previous, dir, manifest, build, writtenAtMs, topics, insights, ...answersModified(manifest) };
  }
  const parts = ready ?? datasetParts(dir, topics.get("/reviews.json")?.body, previous);
  return {
    dir,
    index: parts.index,
    manifest,
    build,
    writtenAtMs,
    ...answersModified(manifest),
    version,
    chain: parts.chain,
    jsonBytes: parts.jsonBytes,
    topics,
    insights,
    results: new ResultStore(resultBytes),
  };
}

/**
 * A since/{date} body is a prefix of `/reviews.json` written by the sidecar's code, so it changed no
 * later than the dataset or that code did: the later of the dataset's Last-Modified (kept across
 * builds, never backwards) and when this code began to serve (code-identity.ts). With the dataset's
 * alone, a deploy that changed how answers are written left it, and a client revalidating with
 * If-Modified-Since alone was told 304 for a body it did not hold.
 */
function answersModified(
  manifest: HeadersManifest,
  codeMs = codeSinceMs(),
): Pick<Snapshot, "lastModifiedMs" | "lastModified"> {
  const dataset = manifest.files["/reviews.json"]?.last_modified;
  const datasetMs = dataset === undefined ? Number.NaN : Date.parse(dataset);
  if (Number.isNaN(datasetMs)) return {};
  if (Math.floor(codeMs / 1000) <= Math.floor(datasetMs / 1000))
    return { lastModifiedMs: datasetMs, lastModified: dataset };
  return { lastModifiedMs: codeMs, lastModified: new Date(codeMs).toUTCString() };
}
