import { ConfigError } from "../src/config.ts";
import { ContentError } from "../src/content/errors.ts";

/**
 * Runs a command's `main`: a content or configuration problem is an editor's to fix, so it is said
 * in their words (`command: file: field: what is wrong`) with exit code 1, never as a stack trace.
 * Anything else is a bug and keeps its stack.
 */
export async function runReportingContentErrors(command: string, main: () => Promise<number>): Promise<number> {
  try {
    return await main();
  } catch (err) {
    if (!(err instanceof ContentError || err instanceof ConfigError)) throw err;
    process.stderr.write(`${command}: ${err.message}\n`);
    return 1;
  }
}
