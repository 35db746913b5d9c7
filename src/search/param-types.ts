import { z } from "zod";
import { shownValue } from "../api/echoed-values.ts";

/**
 * The value types of the search parameters, which arrive as strings (HTTP) or JSON values (MCP):
 * numbers are parsed from their JSON spelling here, in the schema, so both doors accept the same.
 */

/**
 * How a number is written in a query string: a JSON number literal (RFC 8259 §6), e.g. `4`, `4.5`,
 * `-0`, `1e2`; no spaces, `+`, leading zeros or hex. `/openapi.json` says the same (docs/api.md),
 * so a client or contract tester that serialises numbers as JSON does is never refused.
 */
export const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const fromText = (v: unknown) => (typeof v === "string" && JSON_NUMBER.test(v) ? Number(v) : v);

/**
 * `msg`, and for text JavaScript would read as a number that is no JSON number (`05`, `5.`, `+5`,
 * `0x5`) how to write it: "expected an integer from 1 to 100" alone left `limit=010` a riddle. Only
 * a number `accepts` takes is named: `.5` or `0200` for a limit gets `msg` alone.
 */
const spelled = (msg: string, accepts: (n: number) => boolean) => (issue: { input?: unknown }) => {
  const v = issue.input;
  if (typeof v !== "string" || v.trim() === "" || !accepts(Number(v))) return msg;
  return `${msg}, written as a JSON number: ${Number(v)}, not ${shownValue(v)}`;
};

/** An integer from `min` to `max` (at most 2^53-1); `msg` is every refusal's wording, so it states the range. */
export const intParam = (min: number, max: number, msg: string) =>
  z.preprocess(
    fromText,
    z
      .number({ error: spelled(msg, (n) => Number.isSafeInteger(n) && n >= min && n <= max) })
      // Aborts: a non-integer (or one past 2^53) is reported once, not again by the range check.
      .int({ error: msg, abort: true })
      .min(min, { error: msg })
      .max(max, { error: msg }),
  );

export const numParam = (min: number, max: number, msg: string) =>
  z.preprocess(
    fromText,
    z
      .number({ error: spelled(msg, (n) => n >= min && n <= max) })
      .min(min, { error: msg })
      .max(max, { error: msg }),
  );

/** Length in Unicode code points. */
export const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export const textParam = (what: string) => z.string({ error: `expected ${what} as a string` });
