import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Astro builds and servers are heavy; two workers match the 2-core machines this runs on.
    maxWorkers: 2,
  },
});
