import type { LogReader } from "../log/read.ts";

/**
 * The review log and the site's records over HTTP(S), for `npm run log:verify`, `npm run check`
 * and a build that continues the published log. A 404 is an absent file; any other failure is an
 * error. Bounded: each request has a deadline and a size limit, and only `log:verify` waits out a
 * rate limit (`retries`): a build or `npm run check` fails at once rather than wait minutes.
 */

export class LogFetchError extends Error {
  override name = "LogFetchError";
}

/** The largest file read: an entry bundle of 256 entries of at most 65,535 bytes. */
const MAX_BYTES = 256 * 65_537;

export interface HttpOptions {
  fetch?: typeof fetch;
  /** Per request, in milliseconds; default 30 s. */
  timeoutMs?: number;
  maxBytes?: number;
  /** Waits a 429 or 503 may ask for (Retry-After, at most a minute each) before it counts as a failure; default none. */
  retries?: number;
  /** How a wait asked for by Retry-After is spent (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>;
}

/** What failed in a fetch: undici's "fetch failed" says it only in its cause. */
export function failureCause(err: unknown): string {
  return (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
}

/** The longest wait taken. */
const MAX_RETRY_AFTER_S = 60;

/** The seconds a 429 or 503 asks to wait (Retry-After in seconds), when it is a wait worth taking. */
function retryAfter(res: Response): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined;
  const value = res.headers.get("retry-after")?.trim() ?? "";
  return /^\d+$/.test(value) && Number(value) <= MAX_RETRY_AFTER_S ? Number(value) : undefined;
}

/**
 * GETs `url`, waiting out a rate limit that says when to come back: a monitor reading every page
 * of a large site passes the service's own limit (600 a minute), and that is no failure of the site.
 */
export async function fetchPolitely(url: string, init: RequestInit, opts: HttpOptions = {}): Promise<Response> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    const res = await (opts.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
    const wait = attempt < (opts.retries ?? 0) ? retryAfter(res) : undefined;
    if (wait === undefined) return res;
    await res.body?.cancel();
    await sleep(wait * 1000);
  }
}

/** GETs `url`; undefined on 404. */
export async function fetchBytes(url: string, opts: HttpOptions = {}): Promise<Uint8Array | undefined> {
  let res: Response;
  try {
    res = await fetchPolitely(url, { headers: { "accept-encoding": "gzip, identity" } }, opts);
  } catch (err) {
    throw new LogFetchError(`GET ${url} failed: ${failureCause(err)}`);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new LogFetchError(`GET ${url} answered ${res.status}`);
  }
  const limit = opts.maxBytes ?? MAX_BYTES;
  if (Number(res.headers.get("content-length") ?? 0) > limit) {
    await res.body?.cancel();
    throw new LogFetchError(`GET ${url}: more than ${limit} bytes`);
  }
  return readBounded(res, url, limit);
}

/**
 * The body, counted as it arrives (after any Content-Encoding is undone): a body with no
 * Content-Length, or one that inflates, is cut off at `limit` instead of filling memory.
 */
async function readBounded(res: Response, url: string, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Leaving the loop early cancels the stream, so the rest is never read.
    for await (const chunk of res.body ?? []) {
      total += chunk.length;
      if (total > limit) break;
      chunks.push(chunk);
    }
  } catch (err) {
    // The deadline or a dropped connection while reading: a failed request like any other.
    throw new LogFetchError(`GET ${url} failed while reading: ${failureCause(err)}`);
  }
  if (total > limit) throw new LogFetchError(`GET ${url}: more than ${limit} bytes`);
  return Buffer.concat(chunks, total);
}

/** A `LogReader` over the log published at `prefix` (e.g. `https://reviews.example/log`). */
export function httpReader(prefix: string, opts: HttpOptions = {}): LogReader {
  const base = prefix.replace(/\/+$/, "");
  return { where: base, read: (p) => fetchBytes(`${base}/${p}`, opts) };
}
