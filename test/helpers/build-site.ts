import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LOCK = path.join(os.tmpdir(), "public-reviews-astro-build.lock");

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
  distDir: string;
}

/**
 * Runs a real `astro build` of `contentDir` into a fresh temp folder. Builds share the project's
 * Astro cache (node_modules/.astro), so they are serialised across vitest workers with a lock dir.
 */
export async function buildSite(
  contentDir: string,
  env: Record<string, string> = {},
  distDir?: string,
): Promise<BuildResult> {
  const out = distDir ?? (await tempDistDir());
  await acquire();
  try {
    return await new Promise<BuildResult>((resolve, reject) => {
      const child = spawn(path.join(ROOT, "node_modules/.bin/astro"), ["build", "--silent"], {
        cwd: ROOT,
        env: {
          ...process.env,
          PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
          // vitest exports Vite's BASE_URL ("/") into process.env; builds get the real default.
          BASE_URL: "http://localhost:4321",
          CONTENT_DIR: contentDir,
          DIST_DIR: out,
          // A build in a test must never ping a real hub.
          HUB_URL: env.HUB_URL ?? "http://127.0.0.1:9/api/websub/hub",
          ...env,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr, distDir: out }));
    });
  } finally {
    // astro.config.mjs keys its cache by DIST_DIR; temp dists would otherwise pile up caches.
    const key = createHash("sha256").update(path.resolve(out)).digest("hex").slice(0, 12);
    await rm(path.join(ROOT, "node_modules/.astro", key), { recursive: true, force: true });
    await rm(LOCK, { recursive: true, force: true });
  }
}

const created: string[] = [];
// Whatever a test forgot to remove goes when its worker exits.
process.on("exit", () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh output folder inside the project. Astro writes its prerender chunks under the output
 * folder when that is inside the working directory, and under the shared `.astro/` otherwise;
 * a folder here keeps concurrent builds (tests, npm start) from overwriting each other's chunks.
 */
export async function tempDistDir(prefix = "pr-dist-"): Promise<string> {
  const base = path.join(ROOT, ".tmp");
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(path.join(base, prefix));
  created.push(dir);
  return dir;
}

async function acquire(): Promise<void> {
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch {
      // A lock left by a killed test run would block every later build; builds take seconds.
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > 300_000) await rm(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
