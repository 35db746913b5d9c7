import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { main } from "../../scripts/review-new.ts";

/** `npm run review:new` as the review:new tests run it, on a content folder of their own. */

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/**
 * Where review:new looks for review logs: none but what a test writes under `dir`. Port 9
 * (discard): nothing is published at BASE_URL (vitest sets BASE_URL to "/" for Vite).
 */
export const noLogs = (dir: string) => ({
  BASE_URL: "http://127.0.0.1:9",
  DATA_DIR: path.join(dir, ".data"),
  LOG_DIR: path.join(dir, ".log"),
});

/** The script as an editor runs it: a child process of this Node, with `env` (CONTENT_DIR among it). */
export function reviewNewProcess(args: string[], env: Record<string, string | undefined>) {
  return run(path.join(ROOT, "node_modules/.bin/node"), ["scripts/review-new.ts", ...args], { cwd: ROOT, env });
}

/** The script as an editor runs it on the content folder `dir`, with no review log. */
export function reviewNew(dir: string, args: string[]) {
  return reviewNewProcess(args, { ...process.env, CONTENT_DIR: dir, ...noLogs(dir) });
}

/** Runs `main` in-process with a fixed clock, collecting what it prints. */
export async function runAt(now: string, dir: string, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    contentDir: dir,
    env: { ...process.env, CONTENT_DIR: dir, ...noLogs(dir) },
    now: new Date(now),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
