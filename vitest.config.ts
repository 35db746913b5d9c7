import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Astro builds and servers are heavy; two workers match the 2-core machines this runs on.
    maxWorkers: 2,
    // Makes a test CA and points NODE_EXTRA_CA_CERTS at it before workers start (HTTPS subscriber tests).
    globalSetup: ["test/global-setup.ts"],
  },
});
