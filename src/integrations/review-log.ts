import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { madeThisBuild } from "../io/build-content.ts";
import { commitLogDir, writeLogFiles } from "../io/log-dir.ts";
import { REVIEW_LOG, type ReviewLog } from "../io/review-log.ts";

/**
 * Publishes the review log of this build (src/io/review-log.ts) and then keeps it.
 *
 * - `astro:build:generated`: writes the served copy, `log/checkpoint`, `log/key` and every tile
 *   and entry bundle, into the output folder, before `astro:build:done` hashes every file for the
 *   header manifest (build-outputs.ts).
 * - `astro:build:done`, placed after build-outputs: commits the log to LOG_DIR. This is the last
 *   thing a successful build does before the hub ping, so a build that fails anywhere earlier
 *   (a content problem, a page that throws, a killed process) leaves LOG_DIR as it was, and the
 *   next build appends to the log that is live. The one gap left is a build that commits and is
 *   then not switched live (npm start killed between the two, a CDN deploy that fails after
 *   `npm run build`): the log then holds entries of content that went live only with the next
 *   build. That log is still consistent: it is append-only, the next build extends it, and every
 *   record served later matches the entry at its `log_index` (docs/log.md).
 */
export function reviewLogFiles(): AstroIntegration {
  const made = async (): Promise<ReviewLog> => {
    const log = madeThisBuild<Promise<ReviewLog>>(REVIEW_LOG);
    if (!log) throw new Error("review log: no page of this build computed siteData(), so there is no log to write");
    return log;
  };
  return {
    name: "public-reviews/review-log",
    hooks: {
      "astro:build:generated": async ({ dir }) => {
        const log = await made();
        await writeLogFiles(path.join(fileURLToPath(dir), "log"), log.tree, {
          checkpoint: log.checkpoint,
          key: `${log.vkey}\n`,
        });
      },
      "astro:build:done": async ({ logger }) => {
        const log = await made();
        await commitLogDir(log.dir, log.tree, log.priorSize, log.checkpoint);
        const added = log.tree.entries.length - log.priorSize;
        logger.info(`review log ${log.origin}: ${log.tree.entries.length} entries (${added} new), kept in ${log.dir}`);
      },
    },
  };
}
