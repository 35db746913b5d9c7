import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { failBuild } from "../build/build-channel.ts";
import { loadConfig } from "../config.ts";
import { madeThisBuild } from "../io/build-content.ts";
import { writeLogFiles } from "../io/log-dir.ts";
import { overtakenProblem } from "../io/log-published.ts";
import { isLoopbackOrigin } from "../io/log-state.ts";
import { REVIEW_LOG, type ReviewLog } from "../io/review-log.ts";
import { verifierSources } from "../io/verifier-source.ts";
import { parseVerifierKey } from "../log/note-keys.ts";

/**
 * Publishes the review log of this build (src/io/review-log.ts), which is already committed to
 * LOG_DIR: at `astro:build:generated`, before `astro:build:done` hashes every file for the header
 * manifest (build-outputs.ts), it writes `log/checkpoint`, `log/key`, every tile and entry bundle,
 * the partial tiles of earlier checkpoints that are not full yet, and the verifier's source
 * (src/io/verifier-source.ts), once it has checked that the site still publishes a log this one
 * extends (a build deployed meanwhile would fork it). A build that fails after the
 * commit leaves a log holding entries of content that goes live only with a later build; that log
 * is still append-only, and every record served later opens the entry at its `log_index`.
 */
export function reviewLogFiles(): AstroIntegration {
  return {
    name: "public-reviews/review-log",
    hooks: {
      "astro:build:generated": async ({ dir, logger }) => {
        const log = await madeThisBuild<Promise<ReviewLog>>(REVIEW_LOG);
        if (!log) throw new Error("review log: no page of this build computed siteData(), so there is no log to write");
        // The site's checkpoint again, now that the pages took their time: a build deployed meanwhile forks the log with this one.
        const config = loadConfig();
        // As at its start (log-state.ts): a local preview, or a site's first log, has nothing to read there.
        const quiet = isLoopbackOrigin(config.BASE_URL) || config.LOG_NEW;
        const warn = quiet ? undefined : (m: string) => logger.warn(m);
        const verifier = parseVerifierKey(log.vkey);
        const overtaken = await overtakenProblem({ ...log, verifier }, config, { warn });
        if (overtaken) await failBuild([overtaken], overtaken);
        const files: Record<string, string> = { checkpoint: log.checkpoint, key: `${log.vkey}\n` };
        // Builds run from the project root.
        for (const [rel, text] of await verifierSources(process.cwd())) files[`verifier/${rel}.txt`] = text;
        await writeLogFiles(path.join(fileURLToPath(dir), "log"), log.tree, files, log.older);
        const added = log.tree.entries.length - log.priorSize;
        logger.info(`review log ${log.origin}: ${log.tree.entries.length} entries (${added} new), kept in ${log.dir}`);
      },
    },
  };
}
