import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { LogStateError } from "./log-dir.ts";
import { ownRecord, parseRecord, recordAlive } from "./process-alive.ts";

/**
 * One writer per LOG_DIR: a lock file, `LOG_DIR/.lock`, created with O_EXCL and holding the
 * holder's PID, its start time and host. A build holds it from reading the log's state to committing
 * it, a short stretch (no pages are rendered meanwhile), so a second build waits for it. A lock whose
 * process is gone (on this host) is stale, from a build killed mid-commit, and is taken over
 * (`breakStale`); so is one whose PID a process started later now has (a restarted container
 * numbers its processes as before), and one still empty well after it was made (its builder was
 * killed between creating it and writing its PID).
 */

export const LOCK_FILE = ".lock";
/** Beside the lock while a waiter breaks a stale one (`breakStale`). */
const BREAK_FILE = ".break";
/** A lock or break file still without its writer's PID this long after it was made was left by a crash. */
const EMPTY_STALE_MS = 10_000;

/** How long a build waits for another one's commit before it refuses. */
const WAIT_MS = 120_000;
const POLL_MS = 100;

interface Holder {
  pid: number;
  /** When the holder started (process-alive.ts), where the system tells. */
  start?: string;
  host: string;
  since: string;
  /** The lock file's whole text, which no other lock has (it ends in a random tag). */
  text: string;
}

async function holderOf(file: string): Promise<Holder | undefined> {
  try {
    const text = await readFile(file, "utf8");
    const [record = "", host = "", since = ""] = text.split("\n");
    // A record not yet written reads as PID 0: the holder is between open and write.
    return { ...(parseRecord(record) ?? { pid: 0 }), host, since, text };
  } catch {
    return undefined;
  }
}

/** How long ago `file` was last written; 0 when it is gone. */
async function ageMs(file: string): Promise<number> {
  return Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? Date.now());
}

/**
 * Removes the stale lock whose text is `stale`, and no other. Between reading a lock and removing
 * it, another waiter may have removed it and locked anew; a plain removal would then delete a live
 * lock and let two builds in. So one waiter at a time breaks a lock, holding `BREAK_FILE` (created
 * exclusively, with its PID): under it the lock is read again and removed only if it is still the
 * stale one, which nothing else can remove or replace meanwhile. A breaker that died holding it
 * leaves it behind; it is removed as a stale lock is. Returns whether this waiter broke it.
 */
async function breakStale(file: string, stale: string, unfilled: boolean): Promise<boolean> {
  const mutex = `${file}${BREAK_FILE}`;
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(mutex, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another waiter is breaking it: wait. Its breaker gone (or gone before it wrote its PID, so
    // the file is old and empty): remove its file, as a stale lock.
    const breaker = parseRecord(await readFile(mutex, "utf8").catch(() => ""));
    if (breaker ? !recordAlive(breaker) : (await ageMs(mutex)) > EMPTY_STALE_MS) await rm(mutex, { force: true });
    return false;
  }
  try {
    await fh.writeFile(ownRecord());
    await fh.close();
    // An unfilled lock reads as a new holder's does in its first instant: it must still be an old one.
    const still = (await readFile(file, "utf8").catch(() => undefined)) === stale;
    if (still && (!unfilled || (await ageMs(file)) > EMPTY_STALE_MS)) await rm(file, { force: true });
  } finally {
    await rm(mutex, { force: true });
  }
  return true;
}

/** Checks, before each write, that the lock is still this holder's; throws `LogStateError` if not. */
export type LockHeld = () => Promise<void>;

/**
 * Runs `fn` holding the lock on `dir`. Waits for a live holder up to two minutes, then throws
 * `LogStateError` naming it; a holder on another host is never presumed dead.
 */
export async function withLogLock<T>(
  dir: string,
  fn: (held: LockHeld) => Promise<T>,
  opts: { waitMs?: number } = {},
): Promise<T> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const me = `${ownRecord()}${hostname()}\n${new Date().toISOString()}\n${randomBytes(8).toString("hex")}\n`;
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
    // Written but not yet filled in: its writer is between open and write, or was killed there.
    const filling = holder === undefined || holder.pid === 0;
    const stale = filling
      ? holder !== undefined && (await ageMs(file)) > EMPTY_STALE_MS
      : holder.host === hostname() && !recordAlive(holder);
    if (stale && holder && (await breakStale(file, holder.text, filling))) continue;
    if (Date.now() > deadline) {
      const who = filling ? "another process" : `process ${holder.pid} on ${holder.host} since ${holder.since}`;
      throw new LogStateError(
        `${dir} is locked by ${who}, which is writing the review log: two builds must not append to one log at once. Build again when it is done; if that process is gone, remove ${file}`,
      );
    }
    await sleep(POLL_MS);
  }
  // No other process removes a live lock; this guards the commit should that ever fail.
  const held: LockHeld = async () => {
    if ((await readFile(file, "utf8").catch(() => "")) === me) return;
    throw new LogStateError(
      `${file} is no longer this build's lock (another process took it over): nothing more is written to ${dir}; build again`,
    );
  };
  try {
    return await fn(held);
  } finally {
    if ((await readFile(file, "utf8").catch(() => "")) === me) await rm(file, { force: true });
  }
}
