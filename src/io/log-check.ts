import { readdir } from "node:fs/promises";
import path from "node:path";
import { type Config, loadConfig } from "../config.ts";
import type { ValidatedContent } from "../content/validate.ts";
import { logOrigin } from "../log/checkpoint.ts";
import { latePublications } from "../log/late-publications.ts";
import { decodeEntries, deletedReviews } from "../log/plan.ts";
import { type LogReader, readTiledLog } from "../log/read.ts";
import { folderReader, logDirOf, logsRoot } from "./log-dir.ts";
import { httpReader, LogFetchError } from "./log-http.ts";
import { isLoopbackOrigin } from "./log-state.ts";
import { deletionProblems, lateProblems, withdrawalsOf } from "./review-log.ts";

/** Every log there is to read: the one published at BASE_URL/log/, LOG_DIR, and every origin's under DATA_DIR/log/. */
async function logSources(config: Config, fetchImpl?: typeof fetch): Promise<LogReader[]> {
  const sources: LogReader[] = [httpReader(`${config.BASE_URL}/log`, { fetch: fetchImpl, timeoutMs: 10_000 })];
  const dirs = new Set([logDirOf(config)]);
  const root = logsRoot(config.DATA_DIR);
  for (const name of await readdir(root).catch(() => [] as string[])) dirs.add(path.join(root, name));
  for (const dir of dirs) sources.push(folderReader(dir));
  return sources;
}

/**
 * The review ids of every log `npm run check` reads. An id stays in a log for good, also once a
 * withdrawn review's file is deleted, so a new review must not take it (`npm run review:new`).
 * A log that cannot be read adds nothing: the check names it.
 */
export async function loggedIds(env: NodeJS.ProcessEnv): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const source of await logSources(loadConfig(env))) {
    try {
      const log = await readTiledLog(source);
      for (const entry of log ? decodeEntries(log.tree.entries) : []) ids.add(entry.id);
    } catch (err) {
      if (!(err instanceof Error)) throw err;
    }
  }
  return ids;
}

/**
 * What `npm run check` adds to the content check: logged reviews whose file was deleted, and reviews
 * not yet published whose `published_at` is earlier than that of one already published. It needs
 * no key and no state of its own: it reads the ids and events of every log it can find, the one
 * published at BASE_URL/log/, LOG_DIR, and the log of every origin under DATA_DIR/log/ (so the
 * log `npm start` keeps on any port counts). Signatures are not checked (there is no key here);
 * each log's entries are checked against its checkpoint's root. Writes nothing. A deletion only a
 * local preview's log holds (a loopback origin's that BASE_URL does not name: `npm start` on this
 * machine, which nobody else read) is a warning: it does not block a commit, while that preview
 * refuses to build until it is settled.
 */
export async function logProblems(
  env: NodeJS.ProcessEnv,
  content: ValidatedContent,
  opts: { warn: (line: string) => void; fetch?: typeof fetch },
): Promise<string[]> {
  const config = loadConfig(env);
  const sources = await logSources(config, opts.fetch);

  const present = new Set([...content.reviews.map((r) => r.id), ...withdrawalsOf(content).map((w) => w.id)]);
  const problems: string[] = [];
  const reported = new Set<string>();
  const warned = new Set<string>();
  for (const source of sources) {
    let entries: ReturnType<typeof decodeEntries>;
    let preview: boolean;
    let loopback: boolean;
    try {
      const log = await readTiledLog(source);
      if (!log) continue;
      entries = decodeEntries(log.tree.entries);
      loopback = isLoopbackOrigin(`http://${log.checkpoint.origin}`);
      // BASE_URL set to a loopback origin names the site checked against (tests, a local stand-in).
      preview = loopback && !(config.baseUrlExplicit && log.checkpoint.origin === logOrigin(config.BASE_URL));
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      // Nothing served on a local origin is the usual case (npm start is not running).
      if (err instanceof LogFetchError && isLoopbackOrigin(config.BASE_URL)) continue;
      opts.warn(
        `check: the review log at ${source.where} was not read (${(err as Error).message}); deletions are checked against the other logs found`,
      );
      continue;
    }
    // A loopback origin's log is a warning here as in its build (review-log.ts): nobody else reads its feeds.
    const late = latePublications(entries, content.reviews).filter((l) => !reported.has(l.review.id));
    if (loopback) {
      const fresh = late.filter((l) => !warned.has(`late ${l.review.id}`));
      for (const l of fresh) warned.add(`late ${l.review.id}`);
      for (const line of lateProblems(config.CONTENT_DIR, fresh)) opts.warn(`check: warning: ${line}`);
    } else {
      for (const l of late) reported.add(l.review.id);
      problems.push(...lateProblems(config.CONTENT_DIR, late));
    }
    const deleted = deletedReviews(entries, present).filter((d) => !reported.has(d.id));
    if (preview) {
      // Named once, by its folder (npm start's own log is under DATA_DIR/log/ too).
      const fresh = deleted.filter((d) => !warned.has(d.id));
      for (const d of fresh) warned.add(d.id);
      if (!/^https?:/.test(source.where))
        for (const line of deletionProblems(config.CONTENT_DIR, fresh, undefined, { dir: source.where }))
          opts.warn(`check: warning: ${line}`);
      continue;
    }
    for (const d of deleted) reported.add(d.id);
    problems.push(...deletionProblems(config.CONTENT_DIR, deleted, source.where));
  }
  return problems;
}
