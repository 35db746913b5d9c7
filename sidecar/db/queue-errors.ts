import type { Logger } from "pino";

/**
 * pg-boss reports every failed poll of every worker: with the database down that is each of the
 * HUB_CONCURRENCY workers every second, a flood that buries the line saying what is wrong. The
 * same reason (the message without pg-boss's "(Queue: …, Worker: …)" suffix) is logged once per
 * `everyMs`, with how often it was seen meanwhile.
 */

/** Distinct reasons remembered at most; past it they are all forgotten at once. */
const MAX_REASONS = 100;

export function queueErrorLog(log: Logger, msg: string, everyMs = 60_000): (err: Error) => void {
  const seen = new Map<string, { at: number; repeats: number }>();
  return (err) => {
    // Node's AggregateError (ECONNREFUSED on both addresses of `localhost`) has no message, only a code.
    const said = err.message || (err as NodeJS.ErrnoException).code || err.name;
    const reason = said.replace(/ \(Queue: [^)]*\)$/, "");
    const now = Date.now();
    const last = seen.get(reason);
    if (last && now - last.at < everyMs) {
      last.repeats++;
      return;
    }
    if (seen.size >= MAX_REASONS) seen.clear();
    seen.set(reason, { at: now, repeats: 0 });
    log.warn({ err: reason, ...(last?.repeats ? { repeated: last.repeats } : {}) }, msg);
  };
}
