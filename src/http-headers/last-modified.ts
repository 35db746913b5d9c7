/**
 * Last-Modified of a build's files: the time the file's bytes last changed, as an HTTP date.
 * A build keeps the previous build's value for every file whose ETag is unchanged, and stamps a
 * file whose bytes changed (or that is new) with the build's time, made strictly later than the
 * value it replaces. So the header never goes backwards (a withdrawn newest review does not move
 * it back), moves on every change (an amendment moves it, so an older If-Modified-Since gets 200),
 * and stays put while the bytes do (a rebuild moves nothing). Without a previous manifest (a first
 * build, a CDN build from a fresh checkout) every file gets the build's time: later than anything a
 * cache holds, so caches fetch once more and nothing is wrongly 304 (docs/api.md, "Caching headers").
 */

const SECOND = 1000;

/** An HTTP date's epoch seconds, or undefined for a value that is not one. */
function secondsOf(httpDate: string | undefined): number | undefined {
  if (httpDate === undefined) return undefined;
  const ms = Date.parse(httpDate);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / SECOND);
}

/**
 * The Last-Modified of a file with `etag` in a build made at `builtAt`, given the same path's
 * headers in the previous build (if any).
 */
export function lastModifiedOf(
  etag: string,
  builtAt: Date,
  previous: { etag: string; last_modified?: string } | undefined,
): string {
  const before = secondsOf(previous?.last_modified);
  if (previous && before !== undefined && previous.etag === etag) return previous.last_modified as string;
  const now = Math.floor(builtAt.getTime() / SECOND);
  // HTTP dates have one-second resolution: two builds in one second still order their changes.
  const stamp = before === undefined ? now : Math.max(now, before + 1);
  return new Date(stamp * SECOND).toUTCString();
}
