import { registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "astro";
import { forgetBuildContent, releaseBuild } from "../io/build-content.ts";
import { keepReadPacks } from "../io/pack-file.ts";
import { type WorkerReply, WorkerRequestSchema } from "./astro-worker-protocol.ts";

/**
 * The long-lived build process behind `AstroBuildWorker` (src/build/astro-worker.ts): it imports
 * Astro once, then runs Astro's programmatic `build()` for each request, so a rebuild does not pay
 * for starting Node and loading Astro, Vite and their dependencies again.
 *
 * A build runs exactly as `astro build` would in a fresh process started with the same
 * environment: the per-build variables (the output folder) are set on `process.env` before
 * `astro.config.mjs` is read again, which Astro does on every build. After a failed build the
 * process exits, so no half-finished state of Astro survives into the next build, and the
 * parent's `close` event (not a message that could overtake the error output) reports it.
 */

const send = (reply: WorkerReply) =>
  new Promise<void>((resolve) => {
    if (!process.send) resolve();
    else process.send(reply, () => resolve());
  });

if (!process.send) {
  process.stderr.write("astro-worker-main.ts runs as a child of AstroBuildWorker, with an IPC channel\n");
  process.exit(2);
}

/**
 * Each build imports its own prerender bundle, as a fresh `astro build` process would. Astro writes
 * the bundle inside the output folder when that folder is inside the project (a new path per
 * build), but for an output folder elsewhere (a DIST_DIR outside the project) it uses one fixed folder,
 * `<project>/.astro/.prerender/`, for every build; Node's module cache would then hand a later build
 * the first build's modules (its content, its month-page cache keys) for every file name seen
 * before. So every module resolved under that folder is given this build's number as a query:
 * a new URL per build, hence a new module, exactly as under a fresh path.
 */
const SHARED_PRERENDER_DIR = pathToFileURL(path.join(process.cwd(), ".astro", ".prerender") + path.sep).href;
let buildId = 0;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (!resolved.url.startsWith(SHARED_PRERENDER_DIR)) return resolved;
    const url = new URL(resolved.url);
    url.searchParams.set("build", String(buildId));
    return { ...resolved, url: url.href };
  },
});

// This process builds again: the next build reads only the cache packs written since this one.
keepReadPacks();

// The parent is gone (ended, or killed without a chance to end us): nothing would read a result.
process.on("disconnect", () => process.exit(0));

let busy = false;
process.on("message", async (raw: unknown) => {
  const parsed = WorkerRequestSchema.safeParse(raw);
  if (!parsed.success || busy) {
    process.stderr.write(`astro build worker: refused request ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  busy = true;
  const req = parsed.data;
  buildId = req.id;
  for (const [k, v] of Object.entries(req.env)) {
    if (v === null) delete process.env[k];
    else process.env[k] = v;
  }
  // Each build reads CONTENT_DIR afresh; the last build's checked content is kept process-wide.
  forgetBuildContent();
  try {
    // Without Astro's content sync: its Vite server transformed content.config.ts on every build
    // (0.3 s of a save), and nothing the pages show comes from the collections it fills; the
    // content is checked when the build starts (src/integrations/content-first.ts). `sync` is an
    // option of Astro's builder that its public type leaves out: an Astro that ignored it would
    // only sync again.
    await build({ logLevel: req.logLevel }, { sync: false } as Parameters<typeof build>[1]);
  } catch (err) {
    // What `astro build` prints for an error it throws: the message (and Astro's hint, if any).
    const hint = (err as { hint?: unknown }).hint;
    process.stderr.write(`[build] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    if (typeof hint === "string") process.stderr.write(`  Hint: ${hint}\n`);
    process.exit(1);
  }
  // This process keeps every build's bundle loaded (Node never unloads a module): let go of what
  // the build's pages held, so that only the code of each build stays.
  releaseBuild();
  busy = false;
  await send({ type: "done", id: req.id, rssBytes: process.memoryUsage().rss });
});

await send({ type: "ready", rssBytes: process.memoryUsage().rss });
