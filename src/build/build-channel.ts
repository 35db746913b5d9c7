import { formatProblems } from "../io/content-check.ts";
import type { BuildNotice } from "./astro-worker-protocol.ts";

/**
 * The build's side of its typed channel to the process that started it (`npm start`'s build
 * worker, or `runAstroBuild`'s fresh `astro build`, both with an IPC channel). Without a channel
 * (`npm run build` in a terminal) nothing is sent: the printed lines are all there is.
 */

/** Sends `notice` to the parent, if there is one listening; resolves once it is written. */
export function tellParent(notice: BuildNotice): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) resolve();
    else process.send(notice, () => resolve());
  });
}

/**
 * Ends the build because of `problems`: printed as `npm run check` prints them (or as `printed`),
 * and sent to the parent first. Printed and exited rather than thrown: Astro would wrap a throw in
 * a `Location:` and a stack trace, which tell an editor nothing.
 */
export async function failBuild(problems: string[], printed = formatProblems(problems)): Promise<never> {
  process.stderr.write(`${printed}\n`);
  await tellParent({ type: "problems", problems });
  process.exit(1);
}
