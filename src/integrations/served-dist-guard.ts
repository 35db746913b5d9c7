import type { AstroIntegration } from "astro";
import { servedBy } from "../build/dist-holder.ts";

/**
 * Stops `astro build` before it writes anything when DIST_DIR is the build a running `npm start`
 * serves (src/build/dist-holder.ts). Only for `build`: `astro check` beside npm start is fine.
 */
export function servedDistGuard(distDir: string): AstroIntegration {
  return {
    name: "public-reviews/served-dist-guard",
    hooks: {
      "astro:config:setup": ({ command }) => {
        const refusal = command === "build" ? servedBy(distDir) : undefined;
        if (refusal === undefined) return;
        // Printed and exited rather than thrown: Astro would wrap a throw in a stack trace.
        process.stderr.write(`${refusal}\n`);
        process.exit(1);
      },
    },
  };
}
