import { main } from "../../scripts/log-verify.ts";

export interface LogVerifyRun {
  code: number;
  /** What it wrote to stdout, its lines joined by newlines. */
  out: string;
  /** Likewise for stderr. */
  err: string;
}

/**
 * `npm run log:verify` with `argv`, run in this process at `now` (the time a state file records),
 * reading through `fetch` when given.
 */
export async function runLogVerify(
  argv: string[],
  opts: { now: Date; fetch?: typeof globalThis.fetch },
): Promise<LogVerifyRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({ argv, ...opts, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
