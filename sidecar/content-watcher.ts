import { type FSWatcher, watch } from "node:fs";

/**
 * Watches the content folder and calls `rebuild` after changes settle. Rebuilds never overlap: a
 * change that arrives during a rebuild schedules exactly one more afterwards.
 */
export function watchContent(
  dir: string,
  rebuild: () => Promise<void>,
  opts: { debounceMs?: number; onError?: (err: unknown) => void } = {},
): { close(): void } {
  const debounceMs = opts.debounceMs ?? 300;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const run = async () => {
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
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, file) => {
    // Editors write swap and backup files; only real content changes trigger a build.
    if (file && /(^|\/)\.|~$|\.sw[px]$/.test(String(file))) return;
    clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  });
  watcher.on("error", (err) => opts.onError?.(err));
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
