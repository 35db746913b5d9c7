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

/** When process `pid` started, in clock ticks since boot (Linux's /proc/<pid>/stat, field 22); undefined elsewhere. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields 3 on follow the command name, which may itself hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** This process's record: its PID and, where the system tells it, when it started. */
export function ownRecord(): string {
  const start = processStart(process.pid);
  return `${process.pid}${start === undefined ? "" : ` ${start}`}\n`;
}

/** A record as `ownRecord` writes it (or a bare PID), or undefined when it names no PID. */
export function parseRecord(text: string): { pid: number; start?: string } | undefined {
  const [first, start] = text.trim().split(/\s+/);
  const pid = Number(first);
  return Number.isInteger(pid) && pid > 0 ? { pid, start } : undefined;
}

/** The record in `file`, or undefined when it is missing, unreadable or not a PID. */
function readRecord(file: string): { pid: number; start?: string } | undefined {
  try {
    return parseRecord(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The PID a record in `file` names while that process still runs: alive, and, where the record
 * and the system both tell, started when the record says. After a crash or a reboot a PID may be
 * any other process's, whatever its name or title. Undefined otherwise.
 */
export function liveRecord(file: string): number | undefined {
  const record = readRecord(file);
  return record !== undefined && recordAlive(record) ? record.pid : undefined;
}

/** Whether the process a record names still runs: alive, and started when the record says (where both tell). */
export function recordAlive(record: { pid: number; start?: string }): boolean {
  if (!processAlive(record.pid)) return false;
  const now = record.start === undefined ? undefined : processStart(record.pid);
  return now === undefined || now === record.start;
}

/** The PID written in `file`, or undefined when it is missing, unreadable or not a PID. */
export function readPidFile(file: string): number | undefined {
  return readRecord(file)?.pid;
}
