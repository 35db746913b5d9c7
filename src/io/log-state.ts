import type { Config } from "../config.ts";
import { NoteError, openNote } from "../log/note.ts";
import type { Verifier } from "../log/note-keys.ts";
import { LogReadError, type ReadLog, readTiledLog } from "../log/read.ts";
import { filesWithoutCheckpoint, folderReader, LogStateError } from "./log-dir.ts";
import { httpReader, LogFetchError } from "./log-http.ts";
import { base64, divergence, publishedCheckpoint } from "./log-published.ts";

/**
 * The log a build continues. LOG_DIR when it holds one (and the published log, when there is one,
 * is it or leads to it); otherwise the log published at
 * `BASE_URL/log/`, fetched and verified with this log's key, so a CI runner that starts with an
 * empty folder continues the live log rather than starting a second one. Only when nothing is
 * published does a new log start: at once for a loopback origin (local previews, tests); for a
 * public one only with LOG_NEW=1, since "nothing fetchable" may be a network failure.
 */

export interface PriorLog {
  /** The log so far; undefined for a new log. */
  log?: ReadLog;
  /** Whether LOG_DIR held it (else it came from the site, or there is none). */
  fromDir: boolean;
  /**
   * A local preview's LOG_DIR with tiles and no checkpoint: a new log, which `updateLog` writes
   * only if those tiles are exactly its own (a first commit interrupted before its checkpoint).
   */
  interrupted?: { refusal: string };
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: an origin only this machine reaches. */
export function isLoopbackOrigin(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

/**
 * Refuses a LOG_DIR the published log (this key's, at BASE_URL) does not lead to: one shorter than
 * it (a stale CI cache, an old backup), or one whose first entries are not the published ones
 * (another build extended the published log meanwhile, or extended LOG_DIR): appending to either
 * forks the log. Only the checkpoint is fetched; its root is compared with LOG_DIR's tree at its
 * size. A site that publishes no checkpoint (404) is no objection. One that cannot be read is, for
 * a public origin, unless LOG_NEW=1 says it has never published a log; a loopback origin is a
 * local preview, where nothing listening is the usual case.
 */
async function refuseUnlessPublishedLeadsHere(
  dir: string,
  log: ReadLog,
  config: Pick<Config, "BASE_URL" | "LOG_NEW">,
  opts: { origin: string; verifier: Verifier; fetch?: typeof fetch },
): Promise<void> {
  const size = log.checkpoint.size;
  const published = await publishedCheckpoint(config, opts);
  const { url } = published;
  if ("none" in published) return;
  if ("unchecked" in published) {
    if (isLoopbackOrigin(config.BASE_URL) || config.LOG_NEW) return;
    throw new LogStateError(
      `${dir} holds a log of ${size} entries, and the log published at ${url} could not be checked against it (${published.unchecked}). Appending to a LOG_DIR that is behind the live log, or apart from it, would fork the log. Let the build reach the site, or set LOG_NEW=1 if ${config.BASE_URL} has never published a log`,
    );
  }
  const { checkpoint } = published;
  const apart = divergence(log.tree, log.checkpoint.root, checkpoint);
  if (apart && "behind" in apart) {
    throw new LogStateError(
      `${dir} holds a log of ${size} entries (root ${base64(log.checkpoint.root)}), but ${url} publishes ${checkpoint.size} (root ${base64(checkpoint.root)}): LOG_DIR is behind the live log (restored from an old cache or backup?), and appending to it would fork the log. Empty LOG_DIR and build again to continue the published log`,
    );
  }
  if (apart) {
    throw new LogStateError(
      `${dir} holds a log of ${size} entries whose first ${checkpoint.size} are not the ${checkpoint.size} that ${url} publishes (root ${base64(apart.forked)} in LOG_DIR at size ${checkpoint.size}, ${base64(checkpoint.root)} published): LOG_DIR and the live log have forked (two builds appended to the same log, one of them published), and appending to LOG_DIR would fork it further. Empty LOG_DIR and build again to continue the published log`,
    );
  }
}

export async function priorLog(
  dir: string,
  config: Pick<Config, "BASE_URL" | "LOG_NEW">,
  opts: { origin: string; verifier: Verifier; warn: (message: string) => void; fetch?: typeof fetch },
): Promise<PriorLog> {
  try {
    const log = await readTiledLog(folderReader(dir), { verifier: opts.verifier, origin: opts.origin });
    if (log) {
      await refuseUnlessPublishedLeadsHere(dir, log, config, opts);
      return { log, fromDir: true };
    }
  } catch (err) {
    if (!(err instanceof LogReadError)) throw err;
    throw new LogStateError(
      `${err.message}. LOG_DIR holds another log or a damaged one: a log keeps one key and one origin for life; set LOG_SIGNING_KEY and BASE_URL to this log's, or point LOG_DIR at an empty folder`,
    );
  }
  const prefix = `${config.BASE_URL}/log`;
  const loopback = isLoopbackOrigin(config.BASE_URL);
  const stray = await filesWithoutCheckpoint(dir);
  if (stray.length > 0) {
    const refusal = `${dir} has no checkpoint but holds ${stray.join(", ")}: a log whose checkpoint was lost, or a first build's commit interrupted before its checkpoint. Nothing in it was changed. Restore its checkpoint (from a backup, or the one published at ${config.BASE_URL}/log/checkpoint if it is this log's); or, if no checkpoint ever named these tiles, move them aside and build again (docs/log.md#state)`;
    // npm start's first build stopped in its commit (Ctrl-C) must not wedge the next start.
    if (loopback) return { fromDir: false, interrupted: { refusal } };
    throw new LogStateError(refusal);
  }
  const http = httpReader(prefix, { fetch: opts.fetch, timeoutMs: loopback ? 5_000 : 30_000 });
  // A checkpoint that came through proves a log is published, whatever LOG_NEW says.
  let checkpointRead = false;
  const reader = {
    where: http.where,
    read: async (p: string) => {
      const bytes = await http.read(p);
      if (p === "checkpoint" && bytes) checkpointRead = true;
      return bytes;
    },
  };
  let published: ReadLog | undefined;
  try {
    // Verified after the origin matched (a log of this origin under another key is another
    // operator's), and before any tile is fetched.
    published = await readTiledLog(reader, {
      origin: opts.origin,
      authenticate: (note) => void openNote(note, [opts.verifier]),
    });
  } catch (err) {
    if (err instanceof NoteError) {
      if (loopback) {
        opts.warn(
          `review log: the log at ${prefix} is not signed by this key (${err.message}); starting a new log in ${dir}`,
        );
        return { fromDir: false };
      }
      throw new LogStateError(
        `the log published at ${prefix} does not verify with this build's key (${err.message}): set LOG_SIGNING_KEY to the key that log was started with`,
      );
    }
    if (!(err instanceof LogFetchError) && !(err instanceof LogReadError)) throw err;
    if (loopback) {
      // Nothing listening is the usual case for a local preview; something unreadable is worth a word.
      if (err instanceof LogReadError) opts.warn(`review log: ${err.message}; starting a new log in ${dir}`);
      return { fromDir: false };
    }
    if (err instanceof LogReadError)
      throw new LogStateError(`the log published at ${prefix} does not read: ${err.message}`);
    if (checkpointRead)
      throw new LogStateError(
        `${prefix} publishes a review log (its checkpoint was read), which could not be read whole (${err.message}). A build never starts a second log for an origin that has one, with LOG_NEW=1 too: build again when the site answers, or restore LOG_DIR`,
      );
    if (config.LOG_NEW) return { fromDir: false };
    throw new LogStateError(
      `${dir} holds no review log and the one published at ${prefix} could not be fetched (${err.message}). A build never starts a second log for an origin: restore LOG_DIR, or let the build reach the site, or set LOG_NEW=1 if ${config.BASE_URL} has never published a log`,
    );
  }
  if (!published) {
    if (loopback || config.LOG_NEW) return { fromDir: false };
    throw new LogStateError(
      `${dir} holds no review log and ${prefix}/checkpoint is not found. If ${config.BASE_URL} has never published a log, set LOG_NEW=1 for this first build; otherwise restore LOG_DIR (docs/log.md#state)`,
    );
  }
  opts.warn(
    `review log: ${dir} was empty; continuing the log published at ${prefix} (${published.checkpoint.size} entries)`,
  );
  return { log: published, fromDir: false };
}
