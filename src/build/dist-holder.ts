import { lstatSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { liveRecord, ownRecord, readPidFile } from "../io/process-alive.ts";

/**
 * Which process serves the build behind DIST_DIR. `npm start` makes DIST_DIR a symlink to the
 * build it serves (sidecar/build/site-build.ts) and records its PID beside it; `astro build`
 * (astro.config.mjs) refuses to write through that symlink while the process lives, since the
 * build would land in the folder being served: a `BASE_URL=https://cdn… npm run build` beside
 * `npm start` would have put the CDN's links into the local site.
 */

/** `<DIST_DIR>.served-by`, beside the symlink and its builds folder. */
export function holderFile(distDir: string): string {
  return `${path.resolve(distDir)}.served-by`;
}

/** Records this process as the one serving DIST_DIR; the returned function removes the record. */
export function holdDist(distDir: string): () => void {
  const file = holderFile(distDir);
  writeFileSync(file, ownRecord());
  return () => {
    // Only our own record: a later `npm start` may have taken the folder over meanwhile.
    if (readPidFile(file) === process.pid) rmSync(file, { force: true });
  };
}

/**
 * The PID of the live process serving the build DIST_DIR points to, or undefined: DIST_DIR is not
 * `npm start`'s symlink, or the process that recorded itself has exited (a SIGKILL leaves the
 * record behind; a dead PID does not count, nor one another process has since: `liveRecord`).
 */
export function distHolder(distDir: string, { linked = true } = {}): number | undefined {
  // `linked: false` (npm start itself): also while the other npm start makes its first build.
  const link = lstatSync(distDir, { throwIfNoEntry: false });
  if (linked && !link?.isSymbolicLink()) return undefined;
  const pid = liveRecord(holderFile(distDir));
  return pid !== process.pid ? pid : undefined;
}

/**
 * Why a build must not write to `distDir`, naming the way out, when it is the build a running
 * `npm start` serves; undefined otherwise. npm start's own builds go to fresh folders (never
 * through the symlink) and pass.
 */
export function servedBy(distDir: string): string | undefined {
  const pid = distHolder(distDir);
  if (pid === undefined) return undefined;
  return (
    `${distDir} is the build npm start (process ${pid}) is serving; a build would write into it. ` +
    `Build into another folder, e.g. DIST_DIR=dist-cdn BASE_URL=https://reviews.example.com npm run build, ` +
    "or stop npm start first."
  );
}
