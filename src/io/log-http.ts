import type { LogReader } from "../log/read.ts";

/**
 * The review log and the site's records over HTTP(S), for `npm run log:verify`, `npm run check`
 * and a build that continues the published log. A 404 is an absent file; any other failure is an
 * error. Bounded: each request has a deadline and a size limit.
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
}

/** GETs `url`; undefined on 404. */
export async function fetchBytes(url: string, opts: HttpOptions = {}): Promise<Uint8Array | undefined> {
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, {
      headers: { "accept-encoding": "gzip, identity" },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    throw new LogFetchError(`GET ${url} failed: ${cause}`);
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
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.length > limit) throw new LogFetchError(`GET ${url}: more than ${limit} bytes`);
  return body;
}

/** A `LogReader` over the log published at `prefix` (e.g. `https://reviews.example/log`). */
export function httpReader(prefix: string, opts: HttpOptions = {}): LogReader {
  const base = prefix.replace(/\/+$/, "");
  return { where: base, read: (p) => fetchBytes(`${base}/${p}`, opts) };
}
