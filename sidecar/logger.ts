import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * `json`: one pino JSON line per record on stdout, what a log collector expects from a service
 * (`npm run sidecar`, and `npm start` whenever its output is not a terminal). `pretty`: one plain
 * line per record, for a person watching `npm start` in a terminal: the time, the message and, for
 * a warning or an error, what went wrong; the fields stay in the JSON format.
 */
export type LogFormat = "json" | "pretty";

/**
 * The format when LOG_FORMAT is unset: plain lines only for `npm start` writing to a terminal; a
 * service (`npm run sidecar`) and any output read by a program (a pipe, a file, a collector) get JSON.
 */
export function defaultLogFormat(opts: { sidecarOnly: boolean; isTTY: boolean | undefined }): LogFormat {
  return !opts.sidecarOnly && opts.isTTY === true ? "pretty" : "json";
}

/** Structured logs on stdout (`json`, the default) or plain lines (`pretty`); `silent` in tests. */
export function createLogger(
  level: string,
  format: LogFormat = "json",
  out: NodeJS.WritableStream = process.stdout,
): Logger {
  const options = { level, base: { service: "public-reviews" }, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === "json") return out === process.stdout ? pino(options) : pino(options, out as DestinationStream);
  return pino(options, { write: (line: string) => void out.write(plainLine(line)) });
}

function servingLine(r: Record<string, unknown>): string {
  return typeof r.build_ms === "number"
    ? `built in ${(r.build_ms / 1000).toFixed(1)} s, ${r.reviews} reviews, serving`
    : `serving the build in ${r.dir} (${r.reviews} reviews)`;
}

/** Words a plain line uses for some records, where the message alone names no figure. */
const PLAIN: Record<string, (r: Record<string, unknown>) => string | undefined> = {
  "serving build": (r) => servingLine(r),
  "serving first build": (r) => servingLine(r),
  request: (r) => `${r.method} ${r.url} ${r.status} ${typeof r.ms === "number" ? r.ms.toFixed(1) : r.ms} ms`,
};

const LEVELS: Record<number, string> = { 10: "trace", 20: "debug", 40: "warning", 50: "error", 60: "fatal" };

/** One pino JSON record as a line a person reads: `12:03:04 built in 1.8 s, 131 reviews, serving`. */
export function plainLine(json: string): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const msg = String(r.msg ?? "");
  const time = typeof r.time === "string" ? r.time.slice(11, 19) : "";
  const level = LEVELS[r.level as number];
  const err = r.err as { message?: unknown } | undefined;
  const text = PLAIN[msg]?.(r) ?? msg;
  const parts = [time, level ? `${level}:` : "", text, err?.message ? `(${String(err.message)})` : ""];
  // A failed build lists its problems one per line below, as `npm run check` prints them.
  const more = Array.isArray(r.problems) ? r.problems.map((p) => `  ${String(p)}\n`).join("") : "";
  return `${parts.filter(Boolean).join(" ")}\n${more}`;
}
