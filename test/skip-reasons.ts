import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Lists, after the run's summary, every test skipped with a reason (`ctx.skip(reason)`, as
 * test/helpers/system-packages.ts does for a missing system package), so a skip is never silent.
 */
export default class SkipReasons implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests("skipped")) {
        const result = test.result();
        const note = result.state === "skipped" ? result.note : undefined;
        if (note) lines.push(`  ${path.relative(process.cwd(), module.moduleId)} > ${test.fullName}: ${note}`);
      }
    }
    if (lines.length > 0) process.stdout.write(`\nSkipped, with the reason:\n${lines.join("\n")}\n\n`);
  }
}
