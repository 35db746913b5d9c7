import { ConfigError, loadConfig } from "../src/config.ts";
import { ContentError } from "../src/content/errors.ts";
import { parseCliArgs, USAGE, UsageError } from "./generate/args.ts";
import { writeContent } from "./generate/write-content.ts";

/**
 * `npm run generate -- --reviews N --out DIR [--seed S] [--until DATE] [--business FILE] [--force]`
 *
 * Writes a synthetic content folder for scale tests and benchmarks. The output depends only on the
 * arguments and the business file, never on the clock. Exit codes: 0 done, 2 bad arguments,
 * 1 anything else.
 */
async function main(): Promise<number> {
  try {
    const options = parseCliArgs(process.argv.slice(2), () => loadConfig().CONTENT_DIR);
    if (options.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const started = performance.now();
    const summary = await writeContent(options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `Wrote ${summary.reviews} reviews dated ${summary.firstDay} to ${summary.until} (${summary.files} files) to ${options.out} in ${seconds} s\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`generate: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ContentError || err instanceof ConfigError) {
      process.stderr.write(`generate: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
