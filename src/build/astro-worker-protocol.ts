import { z } from "zod";

/** The messages between `AstroBuildWorker` and its process (src/build/astro-worker-main.ts). */

/**
 * Variables that may change from one build to the next in the same worker process: each is read
 * again by every build (astro.config.mjs and src/content.config.ts call `loadConfig`).
 */
export const PER_BUILD_VARIABLES = ["DIST_DIR", "ASTRO_CACHE_KEY", "CONTENT_DIR", "HUB_URL", "LOG_DIR"] as const;

export const WorkerRequestSchema = z.object({
  type: z.literal("build"),
  id: z.number().int(),
  /** Set on the worker's `process.env` before the build (`null`: unset); only `PER_BUILD_VARIABLES`. */
  env: z.record(z.enum(PER_BUILD_VARIABLES), z.string().nullable()),
  /** Astro's log level for the build (`build({ logLevel })`). */
  logLevel: z.enum(["info", "silent"]),
});
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;

/**
 * What a build tells the process that started it about the content, over the IPC channel of a
 * build worker or of a fresh `astro build` (src/build/build-channel.ts): the typed reason a build
 * failed, the reviews it left out, so the server never re-runs a check or reads them from output, and
 * when its dataset is written.
 */
export const BuildNoticeSchema = z.discriminatedUnion("type", [
  /** The build ends because of these problems, each naming file, line and field as `npm run check` does. */
  z.object({ type: z.literal("problems"), problems: z.array(z.string()) }),
  /** Review files left out because they are still scaffolds (UNFINISHED_REVIEWS=skip). */
  z.object({ type: z.literal("left-out"), files: z.array(z.string()) }),
  /** `/reviews.json` is written, final, at `file`, while the build goes on: it may be read ahead. */
  z.object({ type: z.literal("dataset"), file: z.string() }),
]);
export type BuildNotice = z.infer<typeof BuildNoticeSchema>;

export const WorkerReplySchema = z.discriminatedUnion("type", [
  ...BuildNoticeSchema.options,
  /** Astro is loaded; `rssBytes` is what an idle worker costs. */
  z.object({ type: z.literal("ready"), rssBytes: z.number() }),
  /** Build `id` succeeded; `rssBytes` lets the parent retire a worker that has grown too much. */
  z.object({ type: z.literal("done"), id: z.number().int(), rssBytes: z.number() }),
]);
export type WorkerReply = z.infer<typeof WorkerReplySchema>;
