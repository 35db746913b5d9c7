import { spawn } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { type HeadersManifest, MANIFEST_FILE } from "../src/lib/headers.ts";

/** Newest modification time under `dir` (files and folders, so deletions count), in ms. */
export async function newestMtime(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const s = await stat(path.join(e.parentPath, e.name)).catch(() => undefined);
    if (s && s.mtimeMs > newest) newest = s.mtimeMs;
  }
  return newest;
}

/**
 * True when `dist/` has no complete build, is older than the content, or (given `baseUrl`) was built
 * for another origin: `PORT=4601 npm start` after a run on 4321 must not serve links to 4321.
 */
export async function buildIsStale(contentDir: string, distDir: string, baseUrl?: string): Promise<boolean> {
  const manifestPath = path.join(distDir, MANIFEST_FILE);
  const built = await stat(manifestPath).catch(() => undefined);
  if (!built) return true;
  if (baseUrl !== undefined && (await builtForBaseUrl(distDir)) !== baseUrl) return true;
  return (await newestMtime(contentDir)) > built.mtimeMs;
}

/** The origin a build was made for, read back from the `rel="self"` link of its `/reviews.json` topic. */
export async function builtForBaseUrl(distDir: string): Promise<string | undefined> {
  const manifest = JSON.parse(await readFile(path.join(distDir, MANIFEST_FILE), "utf8")) as HeadersManifest;
  const self = /<([^>]+)\/reviews\.json>;\s*rel="self"/.exec(manifest.files["/reviews.json"]?.link ?? "");
  return self?.[1];
}

/**
 * Runs `astro build` in a child process with the same environment, so the build reads the same
 * config. Resolves with the exit code; output is forwarded to the parent's stderr.
 */
export function runBuild(env: NodeJS.ProcessEnv, root = process.cwd()): Promise<number> {
  return new Promise((resolve) => {
    const bin = path.join(root, "node_modules", ".bin");
    const child = spawn(path.join(bin, "astro"), ["build"], {
      cwd: root,
      env: { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ""}` },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}
