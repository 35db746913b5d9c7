import { spawn } from "node:child_process";
import { mkdtemp, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ASTRO_BIN, BUILD_NODE_FLAGS, PROJECT_ROOT } from "../../../src/build/astro-build.ts";
import { acquireBuildLock } from "../../../src/build/build-lock.ts";
import { freshLogEnv } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * `npm run build` into a DIST_DIR outside the project shares Astro's `.astro/.prerender/` with
 * every other such build of the checkout; two at once deleted each other's chunks. It must wait
 * for the build lock that npm start's builds hold, then build.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE_URL = "https://reviews.example";
const temp = tempFolders();

describe("npm run build and the checkout's build lock", () => {
  it("waits while another build holds the lock, then builds", async () => {
    const outside = await mkdtemp(path.join(inject("testRun").outside, "pr-cli-lock-"));
    temp.add(outside);
    const distDir = path.join(outside, "dist");
    const release = await acquireBuildLock();
    let released = false;
    try {
      // As `npm run build` runs it: no IPC channel to a build runner.
      const child = spawn(process.execPath, [...BUILD_NODE_FLAGS, ASTRO_BIN, "build"], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, BASE_URL, CONTENT_DIR: FIXTURE, DIST_DIR: distDir, ...(await freshLogEnv(BASE_URL)) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d) => {
        output += d;
      });
      child.stderr.on("data", (d) => {
        output += d;
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      // Held: it says it waits, and neither bundles nor ends.
      const deadline = Date.now() + 60_000;
      while (!output.includes("waiting for another build") && Date.now() < deadline) {
        if (child.exitCode !== null || output.includes("Building static entrypoints")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 3_000));
      expect(output).toContain("waiting for another build of this checkout to end");
      expect(output).not.toContain("Building static entrypoints");
      expect(child.exitCode).toBeNull();

      release();
      released = true;
      expect(await exited, output).toBe(0);
      expect((await stat(path.join(distDir, "reviews.json"))).isFile()).toBe(true);
    } finally {
      if (!released) release();
    }
  }, 300_000);
});
