import { describe, it } from "vitest";

/**
 * `describe(title, suite)` for a suite that needs a system package (Debian's chromium,
 * postgresql, nginx). When `missing` says why it cannot run here, the suite becomes one skipped
 * test carrying that reason, which test/skip-reasons.ts prints at the end of the run: a missing
 * package is never a silent pass.
 */
export function describeWithPackage(missing: string | undefined, title: string, suite: () => void): void {
  if (missing === undefined) describe(title, suite);
  else it(`${title} (skipped)`, (ctx) => ctx.skip(missing));
}
