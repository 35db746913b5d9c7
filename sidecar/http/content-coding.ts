import { brotliCompressSync, constants, gzipSync, zstdCompressSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import { ownCopy } from "../../src/search/result-json.ts";

/**
 * Content codings: which one a client gets, and how it is made. Static files and dynamic responses
 * trade differently. A static file is compressed once per build and served many times, so it gets
 * the smallest coding whatever the CPU (brotli 5). A dynamic body is compressed once per response
 * cache entry, on the request that missed the cache, so its coding must be cheap enough not to
 * stall that request: levels chosen by measurement, see "Compression" in docs/benchmarks-log.md.
 */

export type Coding = "br" | "zstd" | "gzip" | "identity";
export type Encoded = Exclude<Coding, "identity">;

/** Preference order for files of the build. */
export const STATIC_CODINGS: readonly Encoded[] = ["br", "zstd", "gzip"];
/** Preference order for search and since bodies. */
export const DYNAMIC_CODINGS: readonly Encoded[] = ["zstd", "br", "gzip"];

/**
 * Bodies smaller than this are sent as they are: under about 1 KB a compressed body saves less
 * than a TCP segment while costing a compressor set-up on both sides.
 */
export const MIN_COMPRESS_BYTES = 1024;

const br = (quality: number) => (b: Buffer) =>
  brotliCompressSync(b, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: b.length },
  });
const zstd = (level: number) => (b: Buffer) =>
  zstdCompressSync(b, { params: { [constants.ZSTD_c_compressionLevel]: level } });
const gzip = (level: number) => (b: Buffer) => gzipSync(b, { level });

/**
 * Dynamic bodies prefer zstd 1, then brotli 3, then gzip 4: on search pages they give about the
 * bytes of higher levels for a fraction of the CPU, and compressing is the largest part of what a
 * cache miss costs (the measurements: docs/benchmarks-log.md, "Compression").
 */
const LEVELS = {
  static: { br: br(5), zstd: zstd(6), gzip: gzip(6) },
  dynamic: { br: br(3), zstd: zstd(1), gzip: gzip(4) },
} satisfies Record<string, Record<Encoded, (b: Buffer) => Buffer>>;

export type CodingProfile = keyof typeof LEVELS;

/**
 * `body` compressed, in a buffer of its own. zlib returns a slice of its 16 KB output chunk, itself
 * carved from Node's 64 KB buffer pool, and a kept variant would hold all of it: 2,000 search pages
 * of 10.7 MB held 43.7 MB (docs/benchmarks-log.md, "Distinct queries on a quiet machine").
 */
export function compress(body: Buffer, coding: Encoded, profile: CodingProfile): Buffer {
  const coded = LEVELS[profile][coding](body);
  return coded.byteOffset === 0 && coded.buffer.byteLength === coded.length ? coded : ownCopy(coded);
}

/** negotiator 1.x takes the server's order for equal q-values; @types/negotiator 0.6 predates that argument. */
type Encodings = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

/**
 * The codings of `available` the header accepts, best first, by Express's own negotiator: higher
 * q first (q=0 refuses, `*` covers codings not named), `available`'s order among equal q-values.
 */
function acceptedCodings(header: string, available: readonly string[]): string[] {
  const negotiator = new Negotiator({ headers: { "accept-encoding": header } });
  return (negotiator.encodings as unknown as Encodings).call(negotiator, available, { preferred: available });
}

/** Accept-Encoding values seen, per preference list: a client sends the same few headers again and again. */
const negotiated = new Map<readonly Encoded[], LRUCache<string, Coding>>();
const MEMO_LIMIT = 256;

/**
 * The coding `header` prefers among `preference` and identity: the highest q-value wins
 * (`br;q=0.1, gzip;q=0.9` gets gzip), `preference`'s order breaks ties, identity when nothing else
 * is acceptable. Memoised per distinct header, the 256 most recent.
 */
export function negotiateCoding(header: string | undefined, preference: readonly Encoded[] = STATIC_CODINGS): Coding {
  if (!header) return "identity";
  let memo = negotiated.get(preference);
  if (!memo) {
    memo = new LRUCache({ max: MEMO_LIMIT });
    negotiated.set(preference, memo);
  }
  const known = memo.get(header);
  if (known) return known;
  // RFC 9110 §8.4.1.3: a recipient should read "x-gzip" as "gzip".
  const read = header.replace(/(^|[\s,])x-gzip(?=[\s;,]|$)/gi, "$1gzip");
  const coding = (acceptedCodings(read, [...preference, "identity"])[0] ?? "identity") as Coding;
  memo.set(header, coding);
  return coding;
}

const SUFFIX: Record<Encoded, string> = { br: "br", zstd: "zst", gzip: "gz" };

/**
 * The strong ETag of a coded representation (`"<tag>-br"`): RFC 9110 says a strong validator
 * identifies exact bytes, and the coded and identity bytes differ.
 */
export function variantEtag(etag: string, coding: Coding): string {
  if (coding === "identity") return etag;
  return `${etag.slice(0, -1)}-${SUFFIX[coding]}"`;
}
