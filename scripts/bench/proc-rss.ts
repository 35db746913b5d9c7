import { readdirSync, readFileSync } from "node:fs";

/**
 * Peak resident memory of a process and all its descendants, read from /proc (Linux only) so the
 * benchmark needs nothing installed beyond Node: no `/usr/bin/time`, which CI images often lack.
 */

export interface RssSampler {
  /** Stops sampling and returns the peak in bytes (0 when /proc is unavailable). */
  stop(): number;
}

/** Field value in kB from a /proc/<pid>/status text, e.g. `VmRSS`. */
function statusKb(status: string, field: string): number {
  const m = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return m ? Number(m[1]) : 0;
}

function readStatus(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** `root` and every live descendant, found by walking the PPid of every process in /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const status = readStatus(Number(name));
    const ppid = status ? Number(status.match(/^PPid:\s+(\d+)/m)?.[1]) : Number.NaN;
    if (Number.isNaN(ppid)) continue;
    const list = children.get(ppid);
    if (list) list.push(Number(name));
    else children.set(ppid, [Number(name)]);
  }
  const tree: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop() as number;
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * Samples the tree every `intervalMs`. The peak is the larger of the highest sampled sum of VmRSS
 * over the tree and the highest single-process VmHWM seen, so a spike of the main process between
 * two samples is not missed. The tree is re-listed every 10th sample, as listing /proc costs more
 * than reading a few status files.
 */
export function sampleTreeRss(root: number, intervalMs = 50): RssSampler {
  let peakKb = 0;
  let tree: number[] = [root];
  let tick = 0;
  const sample = () => {
    if (tick++ % 10 === 0) tree = processTree(root);
    let sum = 0;
    for (const pid of tree) {
      const status = readStatus(pid);
      if (!status) continue;
      sum += statusKb(status, "VmRSS");
      peakKb = Math.max(peakKb, statusKb(status, "VmHWM"));
    }
    peakKb = Math.max(peakKb, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  // A sampler someone forgot to stop must not keep the bench alive.
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return peakKb * 1024;
    },
  };
}
