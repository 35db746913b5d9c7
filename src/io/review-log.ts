import { readFileSync } from "node:fs";
import path from "node:path";
import { failBuild } from "../build/build-channel.ts";
import { type Config, loadConfig } from "../config.ts";
import { fieldLine } from "../content/field-lines.ts";
import type { ValidatedContent } from "../content/validate.ts";
import { logOrigin } from "../log/checkpoint.ts";
import type { LoggedReview } from "../log/entries.ts";
import { type LatePublication, latePublications } from "../log/late-publications.ts";
import { parseVerifierKey } from "../log/note-keys.ts";
import {
  type CurrentContent,
  decodeEntries,
  LogDateError,
  type LogPlan,
  planLog,
  type Withdrawal,
} from "../log/plan.ts";
import type { Tile } from "../log/tiles.ts";
import { appendEntries, EMPTY_LOG, type LogTree, signedCheckpoint } from "../log/tree.ts";
import { type NoticeLogger, perBuild } from "./build-content.ts";
import { formatProblems } from "./content-check.ts";
import { displayPath } from "./content-dir.ts";
import { commitLogDir, keptPartials, LogStateError, logDirOf, onlyTilesOf, repairTiles } from "./log-dir.ts";
import { type LogKey, LogKeyError, logSigningKey } from "./log-key.ts";
import { withLogLock } from "./log-lock.ts";
import { isLoopbackOrigin, priorLog } from "./log-state.ts";

/**
 * One build's review log: under LOG_DIR's lock, the log so far read once (log-state.ts), this
 * build's entries appended, the checkpoint signed and committed to LOG_DIR, before any page of the
 * build is written. The pages read it through `siteData()`; the `review-log` integration then
 * writes the served copy into the build's `log/` folder (src/integrations/review-log.ts).
 */
export interface ReviewLog {
  origin: string;
  /** LOG_DIR. */
  dir: string;
  /** The verifier key (`/log/key`). */
  vkey: string;
  /** The signed checkpoint (`/log/checkpoint`). */
  checkpoint: string;
  tree: LogTree;
  /** Partial tiles of earlier checkpoints, still served (tlog-tiles). */
  older: Tile[];
  /** Entries the log held before this build. */
  priorSize: number;
  plan: LogPlan;
}

/** `perBuild`'s name for the review log, which the integration reads with `madeThisBuild`. */
export const REVIEW_LOG = "review-log";

export function withdrawalsOf(content: Pick<ValidatedContent, "withdrawn">): Withdrawal[] {
  return content.withdrawn.flatMap((r) => (r.withdrawn ? [{ id: r.id, ...r.withdrawn }] : []));
}

/** The file an editor deleted, named the way the content check names files: ids start with their date. */
function deletedFile(contentDir: string, id: string): string {
  const year = /^\d{4}-/.test(id) ? id.slice(0, 4) : "<year>";
  return displayPath(path.join(contentDir, "reviews", year, `${id}.yaml`));
}

/**
 * One content-check line per logged review whose file is gone. `preview`: the folder of a loopback
 * origin's log (`npm start` on this machine), which nobody else has read, so it may also be started
 * afresh by removing the folder.
 */
export function deletionProblems(
  contentDir: string,
  deleted: LogPlan["deleted"],
  where?: string,
  preview?: { dir: string },
): string[] {
  const withdraw = "restore the file and mark it withdrawn: {reason: <id>, date: YYYY-MM-DD} instead (docs/editors.md)";
  return deleted.map((d) =>
    preview
      ? `${deletedFile(contentDir, d.id)}: deleted, but review ${d.id} is in the review log of a local preview (a loopback origin; entry ${d.index} of ${preview.dir}): ${withdraw}, or, as nobody else has read that log, remove ${preview.dir} to start it afresh`
      : `${deletedFile(contentDir, d.id)}: deleted, but review ${d.id} is in the public review log (entry ${d.index}${where ? ` of ${where}` : ""}); a published review is never deleted: ${withdraw}`,
  );
}

/**
 * One content-check line per review this build would publish with a `published_at` earlier than a
 * review already on the list (src/log/late-publications.ts), naming its file, line and field.
 */
export function lateProblems(contentDir: string, late: readonly LatePublication[]): string[] {
  return late.map(({ review: r, newest: n }) => {
    const file = path.join(contentDir, "reviews", r.date.slice(0, 4), `${r.id}.yaml`);
    let line: number | undefined;
    try {
      line = fieldLine(readFileSync(file, "utf8"), ["published_at"]);
    } catch {
      line = undefined;
    }
    return `${displayPath(file)}: ${line ? `line ${line}: ` : ""}published_at: ${r.published_at} is earlier than the published_at of review ${n.id} (${n.published_at}), which is already published; a review is published by the build that first lists it, and published_at says when, so that it heads the feeds: npm run review:new wrote the moment it made this file, so set it to the moment you publish, in UTC and later than ${n.published_at} (docs/editors.md)`;
  });
}

/**
 * Appends what `content` adds to the log in `dir` (or the log it continues, log-state.ts) and
 * commits it, all under LOG_DIR's lock. Throws `LogStateError` (a deleted logged review, or a late
 * `published_at`, among them), `LogDateError` or `LogKeyError`, having committed nothing.
 */
export async function updateLog(opts: {
  dir: string;
  origin: string;
  key: LogKey;
  config: Pick<Config, "BASE_URL" | "LOG_NEW" | "CONTENT_DIR">;
  content: CurrentContent;
  today: string;
  warn: (message: string) => void;
}): Promise<ReviewLog> {
  const { dir, origin, key, config } = opts;
  const verifier = parseVerifierKey(key.vkey);
  return withLogLock(dir, async (held) => {
    const prior = await priorLog(dir, config, { origin, verifier, warn: opts.warn });
    const priorTree = prior.log?.tree ?? EMPTY_LOG;
    let logged: ReturnType<typeof decodeEntries>;
    try {
      logged = decodeEntries(priorTree.entries);
    } catch (err) {
      // Above all a log of the earlier format, whose entries carried whole records (docs/log.md).
      throw new LogStateError(
        `${prior.fromDir ? dir : `${config.BASE_URL}/log`}: ${(err as Error).message}. Entries that commit to records start a new log: move the old log's folder aside (keep it) and build again`,
      );
    }
    const plan = planLog(logged, opts.content, { nonce: key.nonce, today: opts.today });
    if (plan.deleted.length > 0) {
      const preview = isLoopbackOrigin(config.BASE_URL) ? { dir } : undefined;
      const problems = deletionProblems(config.CONTENT_DIR, plan.deleted, undefined, preview);
      throw new LogStateError(formatProblems(problems), problems);
    }
    const late = lateProblems(config.CONTENT_DIR, latePublications(logged, opts.content.reviews));
    // A local preview's feeds are read by nobody else, and a review pulled from a colleague may be
    // live already with an older date than one previewed here: a warning, not a wedged npm start.
    if (late.length > 0 && isLoopbackOrigin(`http://${origin}`))
      for (const line of late) opts.warn(`review log of a local preview (a loopback origin): ${line}`);
    else if (late.length > 0) throw new LogStateError(formatProblems(late), late);
    if (prior.fromDir) {
      for (const r of await repairTiles(dir, priorTree, held))
        opts.warn(`review log: ${r}; repaired from the entries, which hash to the signed checkpoint`);
    }
    const tree = appendEntries(priorTree, plan.added);
    if (prior.interrupted && !(await onlyTilesOf(dir, tree))) throw new LogStateError(prior.interrupted.refusal);
    const checkpoint = signedCheckpoint(tree, origin, key.signer);
    // A log fetched from the site is written to LOG_DIR whole.
    const from = prior.fromDir && prior.log ? prior.log.note : undefined;
    await commitLogDir(dir, tree, checkpoint, { note: from, size: from ? priorTree.entries.length : 0 }, held);
    const older = await keptPartials(dir, tree);
    return { origin, dir, vkey: key.vkey, checkpoint, tree, older, priorSize: priorTree.entries.length, plan };
  });
}

/**
 * This build's log, made and committed once per build from the reviews on the public list
 * (`fields`, see `reviewFields`) and the withdrawn ones. A deleted logged review, a damaged or
 * foreign LOG_DIR, a log that cannot be continued or a clock behind the log ends the build with a
 * message and changes nothing.
 */
export function reviewLog(
  fields: readonly LoggedReview[],
  content: Pick<ValidatedContent, "withdrawn">,
  logger: NoticeLogger,
): Promise<ReviewLog> {
  return perBuild(REVIEW_LOG, async () => {
    const config = loadConfig();
    const origin = logOrigin(config.BASE_URL);
    const warn = (m: string) => logger.warn(m);
    const dir = logDirOf(config);
    try {
      return await updateLog({
        dir,
        origin,
        key: await logSigningKey(config, origin, warn),
        config,
        content: { reviews: fields, withdrawn: withdrawalsOf(content) },
        today: new Date().toISOString().slice(0, 10),
        warn,
      });
    } catch (err) {
      // Through the build's typed channel, so npm start shows these lines and nothing else.
      if (err instanceof LogStateError) await failBuild(err.problems, err.message);
      if (err instanceof LogKeyError || err instanceof LogDateError) await failBuild([err.message], err.message);
      // A LOG_DIR that is a file, or a folder this build may not write: the system's words, not Astro's stack trace.
      if (typeof (err as NodeJS.ErrnoException).code === "string" && (err as NodeJS.ErrnoException).syscall) {
        const line = `the review log could not be kept: ${(err as Error).message}; LOG_DIR (${dir}) and DATA_DIR must be folders this build can write`;
        await failBuild([line], line);
      }
      throw err;
    }
  });
}
