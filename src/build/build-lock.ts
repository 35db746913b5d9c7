import { rmSync } from "node:fs";
import { mkdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { liveRecord, ownRecord, readPidFile } from "../io/process-alive.ts";

/**
 * A lock directory shared by every build of this checkout that asks for it (npm start, npm run
 * build, test workers, the benchmark): Astro writes prerender chunks to a folder shared by all
 * builds of the project, so two at once can break each other. `mkdir` is atomic, so the folder's
 * existence is the lock. It lives in the checkout, beside Astro's caches, as what it guards does:
 * a temporary folder differs between processes (a test run's own TMPDIR, systemd's PrivateTmp),
 * and builds of two clones never share Astro's folders, so they need not wait for each other.
 */
const LOCK = path.join(fileURLToPath(new URL("../../node_modules/.astro/", import.meta.url)), "build.lock");
/** A lock older than this was left by a killed process. */
const STALE_MS = 300_000;
/** A 100,000-review build takes longer than `STALE_MS`, so the holder keeps the lock fresh. */
const REFRESH_MS = 30_000;

/**
 * Whether the process that took the lock has ended without releasing it (SIGKILL, a crash): its
 * PID, written just after the `mkdir`, no longer runs. A lock without a PID file yet is taken.
 */
function holderIsGone(): boolean {
  const file = path.join(LOCK, "pid");
  return readPidFile(file) !== undefined && liveRecord(file) === undefined;
}

/** Waits for the lock; the returned function releases it (synchronously, so signal handlers can). */
export async function acquireBuildLock(): Promise<() => void> {
  for (;;) {
    try {
      await mkdir(path.dirname(LOCK), { recursive: true });
      await mkdir(LOCK);
      await writeFile(path.join(LOCK, "pid"), ownRecord()).catch(() => undefined);
      break;
    } catch (err) {
      // Only another build's lock is waited for: a folder this user cannot write is said at once.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST")
        throw new Error(`cannot take the build lock ${LOCK}: ${(err as Error).message}`);
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_MS || holderIsGone()) await rm(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const keepAlive = setInterval(() => {
    const now = new Date();
    utimes(LOCK, now, now).catch(() => undefined);
  }, REFRESH_MS);
  keepAlive.unref();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    clearInterval(keepAlive);
    // Only our own: with the cache folder cleared meanwhile, the lock may now be another build's.
    const owner = readPidFile(path.join(LOCK, "pid"));
    if (owner === undefined || owner === process.pid) rmSync(LOCK, { recursive: true, force: true });
  };
}
