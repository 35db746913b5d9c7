import { mkdir, open, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { LogStateError } from "./log-dir.ts";
import { processAlive } from "./process-alive.ts";

/**
 * One writer per LOG_DIR: a lock file, `LOG_DIR/.lock`, created with O_EXCL and holding the
 * holder's PID and host. A build holds it from reading the log's state to committing it, a short
 * stretch (no pages are rendered meanwhile), so a second build waits for it. A lock whose process
 * is gone (on this host) is stale, from a build killed mid-commit, and is taken over.
 */

export const LOCK_FILE = ".lock";

/** How long a build waits for another one's commit before it refuses. */
const WAIT_MS = 120_000;
const POLL_MS = 100;

interface Holder {
  pid: number;
  host: string;
  since: string;
}

async function holderOf(file: string): Promise<Holder | undefined> {
  try {
    const [pid = "", host = "", since = ""] = (await readFile(file, "utf8")).split("\n");
    return { pid: Number(pid), host, since };
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` holding the lock on `dir`. Waits for a live holder up to two minutes, then throws
 * `LogStateError` naming it; a holder on another host is never presumed dead.
 */
export async function withLogLock<T>(dir: string, fn: () => Promise<T>, opts: { waitMs?: number } = {}): Promise<T> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const me = `${process.pid}\n${hostname()}\n${new Date().toISOString()}\n`;
  const deadline = Date.now() + (opts.waitMs ?? WAIT_MS);
  for (;;) {
    try {
      const fh = await open(file, "wx");
      try {
        await fh.writeFile(me);
        await fh.sync();
      } finally {
        await fh.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = await holderOf(file);
    // Written but not yet filled in: its writer is between open and write.
    const filling = holder === undefined || !Number.isInteger(holder.pid) || holder.pid <= 0;
    if (!filling && holder.host === hostname() && !processAlive(holder.pid)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      const who = filling ? "another process" : `process ${holder.pid} on ${holder.host} since ${holder.since}`;
      throw new LogStateError(
        `${dir} is locked by ${who}, which is writing the review log: two builds must not append to one log at once. Build again when it is done; if that process is gone, remove ${file}`,
      );
    }
    await sleep(POLL_MS);
  }
  try {
    return await fn();
  } finally {
    if ((await readFile(file, "utf8").catch(() => "")) === me) await rm(file, { force: true });
  }
}
