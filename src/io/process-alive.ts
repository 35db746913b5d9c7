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

/**
 * Whether process `pid` runs `script` (a path its command line ends with), where the system says
 * what a process runs (Linux's /proc): a record's PID outlives its process after a crash or a
 * reboot and may be any other process's now. Elsewhere, whether it runs at all.
 */
export function processRuns(pid: number, script: string): boolean {
  if (!processAlive(pid)) return false;
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return true;
  }
  return cmdline.split("\0").some((arg) => arg === script || arg.endsWith(`/${script}`));
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
