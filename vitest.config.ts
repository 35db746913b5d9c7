import { defineConfig } from "vitest/config";

/**
 * The heavy test files: soak runs, many cold Astro builds, real npm start / nginx / PostgreSQL
 * deployments and the browser. `npm test` leaves them out so it stays a pre-commit run;
 * `npm run test:all` (`--mode all`, what CI runs) adds them. docs/development.md says why each is here.
 * Every other file, including any new one, is in `npm test`.
 */
export const HEAVY_TESTS = [
  "test/e2e/atomic-rebuild.test.ts",
  "test/e2e/cdn-build.test.ts",
  "test/e2e/deploy-nginx.test.ts",
  "test/e2e/determinism.test.ts",
  "test/e2e/incremental-build.test.ts",
  "test/e2e/insights.test.ts",
  "test/e2e/long-lists.test.ts",
  "test/e2e/long-words-browser.test.ts",
  "test/e2e/mcp-heap-cap.test.ts",
  "test/e2e/outage.test.ts",
  "test/e2e/page-browser.test.ts",
  "test/e2e/review-log.test.ts",
  "test/e2e/review-log-concurrent.test.ts",
  "test/e2e/scale-out.test.ts",
  "test/scripts/train-insights.test.ts",
  "test/sidecar/mcp/conformance.test.ts",
  "test/sidecar/mcp/memory.test.ts",
  "test/sidecar/npm-start.test.ts",
  "test/src/build/astro-worker.test.ts",
  "test/sidecar/build/outage-build.test.ts",
  "test/sidecar/mcp/idle-sessions.test.ts",
  "test/sidecar/db/partition-recovery.test.ts",
  "test/sidecar/db/shutdown-hung-database.test.ts",
  "test/sidecar/mcp/hung-database.test.ts",
  "test/sidecar/hub/queue-waits.test.ts",
];

export default defineConfig(({ mode }) => {
  const all = mode === "all";
  return {
    test: {
      include: ["test/**/*.test.ts"],
      exclude: all ? [] : HEAVY_TESTS,
      // Timeouts a test does not set itself; the full run's are sized for a machine shared with other work.
      testTimeout: all ? 180_000 : 60_000,
      hookTimeout: all ? 900_000 : 300_000,
      // Astro builds and servers are heavy; two workers match the 2-core machines this runs on.
      maxWorkers: 2,
      // npm test runs many files in each worker, which loads the project's modules once (loading them
      // in a fresh worker per file took a tenth of the run); test:all, what CI runs, isolates each file.
      isolate: all,
      // Makes a test CA and this run's temporary folders before workers start, and removes them after.
      globalSetup: ["test/global-setup.ts"],
      reporters: ["default", "./test/skip-reasons.ts"],
    },
  };
});
