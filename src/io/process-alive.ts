import { readFileSync } from "node:fs";

/**
 * PID records beside files that a process holds (the build lock, the served DIST_DIR, a pack
 * file's writer): a SIGKILL leaves the record behind, so a holder counts only while it runs.
 */

/** Whether process `pid` is running (EPERM: it exists, as another user's, so it is running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The PID written in `file`, or undefined when it is missing, unreadable or not a PID. */
export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
