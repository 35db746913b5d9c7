import type { AstroIntegration } from "astro";
import { acquireBuildLock } from "../build/build-lock.ts";

/**
 * `npm run build` takes this checkout's build lock (src/build/build-lock.ts), as npm start's builds
 * and the tests' do: for a DIST_DIR outside the project Astro bundles the prerender chunks into
 * one folder of the project, `.astro/.prerender/`, so two such builds at once delete each other's
 * chunks and one dies with ERR_MODULE_NOT_FOUND and a stack trace. A build with an IPC channel was
 * started by runAstroBuild (src/build/astro-build.ts), which holds the lock for it already.
 */
export function cliBuildLock(): AstroIntegration {
  let release: (() => void) | undefined;
  return {
    name: "public-reviews/cli-build-lock",
    hooks: {
      "astro:config:setup": async ({ command, logger }) => {
        if (command !== "build" || process.send) return;
        const waiting = setTimeout(() => logger.info("waiting for another build of this checkout to end"), 1_000);
        release = await acquireBuildLock();
        clearTimeout(waiting);
        // Released however the build ends: `exit` also runs after a process.exit(1) on bad content.
        process.once("exit", release);
      },
      "astro:build:done": () => release?.(),
    },
  };
}
