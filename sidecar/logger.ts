import pino, { type Logger } from "pino";

export type { Logger };

/** Structured JSON logs on stdout; `silent` in tests. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: "public-reviews" }, timestamp: pino.stdTimeFunctions.isoTime });
}
