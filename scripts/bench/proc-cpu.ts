import { readFileSync } from "node:fs";

/**
 * CPU time a process has used, read from /proc (Linux only), so a figure can be the server's CPU
 * per request: unlike a request rate, it hardly moves when other processes share the cores.
 */

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/** User plus system CPU of `pid` and all its threads so far, in microseconds; undefined without /proc. */
export function cpuMicros(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may itself hold spaces: utime is the
  // 14th field of the line, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1e6) / USER_HZ : undefined;
}
