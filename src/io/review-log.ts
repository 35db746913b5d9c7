import path from "node:path";
import { failBuild } from "../build/build-channel.ts";
import { loadConfig } from "../config.ts";
import { reviewFields } from "../content/dataset.ts";
import type { ValidatedContent } from "../content/validate.ts";
import { logOrigin } from "../log/checkpoint.ts";
import type { LoggedReview } from "../log/entries.ts";
import { parseVerifierKey } from "../log/note-keys.ts";
import { type LogPlan, planLog, type Withdrawal } from "../log/plan.ts";
import { appendEntries, type LogTree, signedCheckpoint } from "../log/tree.ts";
import { type NoticeLogger, perBuild } from "./build-content.ts";
import { displayPath } from "./content-dir.ts";
import { LogStateError, logDirOf, readLogDir } from "./log-dir.ts";
import { LogKeyError, logSigningKey } from "./log-key.ts";

/**
 * One build's review log: LOG_DIR read once, this build's entries appended in memory and the
 * checkpoint signed. The pages read it through `siteData()`, the `review-log` integration writes
 * it into the build's `log/` folder and, once the build has succeeded, commits it to LOG_DIR
 * (src/integrations/review-log.ts). Nothing is written to LOG_DIR before then.
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
  /** Entries LOG_DIR held before this build. */
  priorSize: number;
  plan: LogPlan;
}

/** `perBuild`'s name for the review log, which the integration reads with `madeThisBuild`. */
export const REVIEW_LOG = "review-log";

export function withdrawalsOf(content: Pick<ValidatedContent, "withdrawn">): Withdrawal[] {
  return content.withdrawn.flatMap((r) => (r.withdrawn ? [{ id: r.id, ...r.withdrawn }] : []));
}

/**
 * The file an editor deleted, named the way the content check names files. Review files live
 * under their year, which for the sample content and the scaffold is the review date's.
 */
function deletedFile(contentDir: string, d: LogPlan["deleted"][number]): string {
  const year = d.date?.slice(0, 4) ?? "<year>";
  return displayPath(path.join(contentDir, "reviews", year, `${d.id}.yaml`));
}

/** One content-check line per logged review whose file is gone. */
export function deletionProblems(contentDir: string, deleted: LogPlan["deleted"]): string[] {
  return deleted.map(
    (d) =>
      `${deletedFile(contentDir, d)}: deleted, but review ${d.id} is in the public review log (entry ${d.index}); a published review is never deleted: restore the file and mark it withdrawn: {reason: <id>, date: YYYY-MM-DD} instead (docs/editors.md)`,
  );
}

/** What `npm run check` adds to the content check: deleted logged reviews. Reads LOG_DIR, writes nothing. */
export async function logProblems(env: NodeJS.ProcessEnv, content: ValidatedContent): Promise<string[]> {
  const config = loadConfig(env);
  try {
    // Any origin: the check is about deleted files, and may run without the deployment's BASE_URL.
    const prior = await readLogDir(logDirOf(config), {});
    const plan = planLog(prior.entries, { reviews: reviewFields(content), withdrawn: withdrawalsOf(content) });
    return deletionProblems(config.CONTENT_DIR, plan.deleted);
  } catch (err) {
    if (err instanceof LogStateError) return [err.message];
    throw err;
  }
}

/**
 * This build's log, made once per build from the reviews on the public list (`fields`, see
 * `reviewFields`) and the withdrawn ones. A deleted logged review, a damaged LOG_DIR or a key
 * for another log ends the build with a message and changes nothing.
 */
export function reviewLog(
  fields: readonly LoggedReview[],
  content: Pick<ValidatedContent, "withdrawn">,
  logger: NoticeLogger,
): Promise<ReviewLog> {
  return perBuild(REVIEW_LOG, async () => {
    const config = loadConfig();
    const origin = logOrigin(config.BASE_URL);
    const dir = logDirOf(config);
    try {
      const key = await logSigningKey(config, origin, (m) => logger.warn(m));
      const prior = await readLogDir(dir, { origin, verifier: parseVerifierKey(key.vkey) });
      const plan = planLog(prior.entries, { reviews: fields, withdrawn: withdrawalsOf(content) });
      if (plan.deleted.length > 0) {
        await failBuild(deletionProblems(config.CONTENT_DIR, plan.deleted));
      }
      const tree = appendEntries(prior, plan.added);
      const checkpoint = signedCheckpoint(tree, origin, key.signer);
      return { origin, dir, vkey: key.vkey, checkpoint, tree, priorSize: prior.entries.length, plan };
    } catch (err) {
      if (err instanceof LogStateError || err instanceof LogKeyError) await failBuild([err.message], err.message);
      throw err;
    }
  });
}
