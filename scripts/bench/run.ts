import { writeFile } from "node:fs/promises";
import { abortBuildSync } from "./astro-build.ts";
import { benchBuild } from "./build.ts";
import { killAll } from "./children.ts";
import { benchConditional } from "./conditional.ts";
import type { Failure, Figure, Section } from "./figures.ts";
import { benchHub } from "./hub.ts";
import { benchMcp } from "./mcp.ts";
import { type Profile, parseArgs, USAGE, UsageError } from "./profile.ts";
import { describeMachine, makeReport, renderMarkdown } from "./report.ts";
import { benchSearch } from "./search.ts";
import { Workspace } from "./workspace.ts";

/**
 * `npm run bench -- [--smoke] [--only SECTION,…] [--json FILE]`
 *
 * Runs each section in turn, prints the Markdown table on stdout (progress goes to stderr) and
 * optionally writes the same figures as JSON. Exit codes: 0 every section ran (whether or not its
 * targets were met: targets are reported, not asserted), 1 a section crashed, 2 bad arguments.
 */

const BENCHES: Record<Section, (ws: Workspace, p: Profile) => Promise<Figure[]>> = {
  build: benchBuild,
  search: benchSearch,
  conditional: benchConditional,
  mcp: benchMcp,
  hub: benchHub,
};

/** The stack and the chain of causes: undici's "fetch failed" says what failed only in its cause. */
function describe(err: unknown): string {
  const lines: string[] = [];
  for (let e: unknown = err; e !== undefined && lines.length < 5; e = (e as { cause?: unknown }).cause) {
    lines.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
    if (!(e instanceof Error)) break;
  }
  return lines.join("\ncaused by: ");
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`bench: ${err.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { profile } = options;
  const started = new Date();
  const machine = describeMachine();
  const figures: Figure[] = [];
  const failures: Failure[] = [];
  const ws = await Workspace.create();
  const stop = () => {
    // A signal from CI reaches only this process: end the children, free the build lock, clean up.
    killAll();
    abortBuildSync();
    ws.disposeSync();
    process.exit(130);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    for (const section of options.sections) {
      const t = performance.now();
      process.stderr.write(`bench: ${section}…\n`);
      try {
        const got = await BENCHES[section](ws, profile);
        figures.push(...got);
        process.stderr.write(`bench: ${section} done in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
      } catch (err) {
        const message = describe(err);
        failures.push({ section, message });
        process.stderr.write(`bench: ${section} FAILED: ${message}\n`);
      }
    }
  } finally {
    // A child that outlived its stop can still be writing there: the figures matter more.
    await ws.dispose().catch((err) => process.stderr.write(`bench: could not remove ${ws.root}: ${err}\n`));
  }
  const report = makeReport(profile.mode, started, machine, figures, failures);
  process.stdout.write(renderMarkdown(report));
  if (options.json) await writeFile(options.json, `${JSON.stringify(report, null, 2)}\n`);
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main();
