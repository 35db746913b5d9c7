import { readFile, rename, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { type LogReader, LogVerifyError, type SeenCheckpoint, verifyLog } from "../src/log/verify.ts";

/**
 * `npm run log:verify -- --url <prefix> --key <vkey> [--state FILE]`: a monitor of the review log
 * that anyone can run (docs/log.md). It checks the checkpoint's signature with the pinned key,
 * every tile and entry bundle, and with --state that the log extends the checkpoint it saw last,
 * which it then records. Exit 0 when the log verifies, 1 when it does not (one sentence on
 * stderr), 2 on wrong arguments or an unreadable state file.
 */

const USAGE =
  "usage: npm run log:verify -- --url <log prefix, e.g. https://reviews.example/log> --key <verifier key> [--state FILE]";

const SeenSchema = z.object({
  origin: z.string(),
  size: z.number().int().min(0),
  root: z.string(),
  seen_at: z.string(),
});

/** Reads the log over HTTP(S); a 404 is an absent file, any other failure an error. */
export function httpReader(prefix: string, fetchImpl: typeof fetch = fetch): LogReader {
  const base = prefix.replace(/\/+$/, "");
  return {
    async read(path) {
      const res = await fetchImpl(`${base}/${path}`, { headers: { "accept-encoding": "gzip, identity" } });
      if (res.status === 404) return undefined;
      if (!res.ok) throw new LogVerifyError(`GET ${base}/${path} answered ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

export async function main(deps: {
  argv: string[];
  now: Date;
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
}): Promise<number> {
  let args: { url?: string; key?: string; state?: string };
  try {
    ({ values: args } = parseArgs({
      args: deps.argv,
      options: { url: { type: "string" }, key: { type: "string" }, state: { type: "string" } },
    }));
  } catch (err) {
    deps.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!args.url || !args.key) {
    deps.err(USAGE);
    return 2;
  }
  let previous: SeenCheckpoint | undefined;
  if (args.state) {
    const text = await readFile(args.state, "utf8").catch((e: NodeJS.ErrnoException) =>
      e.code === "ENOENT" ? undefined : Promise.reject(e),
    );
    if (text !== undefined) {
      const parsed = SeenSchema.safeParse(
        (() => {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        })(),
      );
      if (!parsed.success) {
        deps.err(`${args.state} is not a state file written by log:verify`);
        return 2;
      }
      previous = parsed.data;
    }
  }
  try {
    const verified = await verifyLog(httpReader(args.url, deps.fetch), args.key, { previous, now: deps.now });
    const { size } = verified.checkpoint;
    const extends_ = previous
      ? `; it extends the checkpoint of size ${previous.size} seen on ${previous.seen_at.slice(0, 10)}`
      : "";
    deps.out(
      `verified ${verified.checkpoint.origin}: ${size} ${size === 1 ? "entry" : "entries"}, root ${verified.seen.root}${extends_}`,
    );
    if (args.state) {
      const tmp = `${args.state}.tmp-${process.pid}`;
      await writeFile(tmp, `${JSON.stringify(verified.seen, null, 2)}\n`);
      await rename(tmp, args.state);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof LogVerifyError) && !(err instanceof TypeError) && (err as Error).name !== "NoteKeyError")
      throw err;
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    deps.err(`log:verify: ${(err as Error).message}${cause ? ` (${cause})` : ""}`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    now: new Date(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
