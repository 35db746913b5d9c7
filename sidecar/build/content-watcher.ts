import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import path from "node:path";

/** Editors write swap and backup files, and dot-folders (.git) are not content. */
const IGNORED = /^\.|~$|\.sw[px]$/;

/**
 * How long the folder must stay quiet before a rebuild starts. An editor's save touches one
 * content file (plus temporary files, some ignored), and waiting longer than its few events take
 * only delays the edit going live; a `git checkout` or a copy touches many files over a longer
 * stretch, and starting a build in the middle of it would build half of it. So the wait depends on
 * how many files the changes so far have named: `save` for up to `SAVE_FILES`, `burst` beyond.
 */
export const QUIET_MS = { save: 50, burst: 500 } as const;
const SAVE_FILES = 2;

/**
 * Watches the content folder and calls `rebuild` after changes settle (`QUIET_MS`). Rebuilds never
 * overlap: a change that arrives during a rebuild schedules exactly one more afterwards.
 *
 * One plain watch per folder, not `watch(dir, { recursive: true })`: on Linux Node implements the
 * recursive option with one inotify watch per file: at 100,000 reviews, far more than the
 * `fs.inotify.max_user_watches` of 8,192 many systems default to, and a blocked event loop at
 * start-up. A folder's watch reports every file created, changed or removed in it.
 */
export function watchContent(
  dir: string,
  rebuild: () => Promise<void>,
  opts: { onError?: (err: unknown) => void } = {},
): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  /** Files named by the changes since the last rebuild was started (bounded: only its size matters). */
  const named = new Set<string>();
  let running = false;
  let again = false;
  const run = async () => {
    named.clear();
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await rebuild();
    } catch (err) {
      opts.onError?.(err);
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };

  const watchers = new Map<string, FSWatcher>();
  const unwatch = (folder: string) => {
    for (const [d, w] of watchers) {
      if (d === folder || d.startsWith(`${folder}${path.sep}`)) {
        w.close();
        watchers.delete(d);
      }
    }
  };
  const onEvent = (folder: string, file: string | Buffer | null) => {
    const name = file === null ? undefined : String(file);
    if (name !== undefined && IGNORED.test(name)) return;
    if (name !== undefined) {
      // A new folder (next year's reviews) needs a watch of its own; a removed one loses its watches.
      const full = path.join(folder, name);
      let isDir = false;
      try {
        isDir = statSync(full).isDirectory();
      } catch {
        unwatch(full);
      }
      if (isDir) add(full);
    }
    if (named.size <= SAVE_FILES) named.add(path.join(folder, name ?? ""));
    clearTimeout(timer);
    timer = setTimeout(run, named.size > SAVE_FILES ? QUIET_MS.burst : QUIET_MS.save);
  };
  /** Watches `folder` and everything below it. A subfolder that vanishes meanwhile is reported, not thrown. */
  function add(folder: string): void {
    if (watchers.has(folder)) return;
    let watcher: FSWatcher;
    let entries: Dirent[];
    try {
      watcher = watch(folder, (_event, file) => onEvent(folder, file));
      watchers.set(folder, watcher);
      watcher.on("error", (err) => opts.onError?.(err));
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (err) {
      watchers.get(folder)?.close();
      watchers.delete(folder);
      if (folder === dir) throw err;
      opts.onError?.(err);
      return;
    }
    for (const e of entries) if (e.isDirectory() && !IGNORED.test(e.name)) add(path.join(folder, e.name));
  }
  add(dir);
  // The content folder itself replaced (moved aside, a backup copied in its place): the watches
  // above follow the old folder, so the parent is watched for the folder's name and the new one
  // is watched afresh, and built.
  let parent: FSWatcher | undefined;
  try {
    parent = watch(path.dirname(dir), (_event, file) => {
      if (file === null || String(file) !== path.basename(dir)) return;
      unwatch(dir);
      try {
        add(dir);
      } catch {
        // Gone for now: watched again when it comes back.
      }
      onEvent(dir, null);
    });
    parent.on("error", (err) => opts.onError?.(err));
  } catch {
    // A parent that cannot be watched: only a replaced folder goes unnoticed, as before.
  }

  return {
    close() {
      clearTimeout(timer);
      parent?.close();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
