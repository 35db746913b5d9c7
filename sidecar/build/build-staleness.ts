import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { MANIFEST_FILE } from "../../src/http-headers/manifest.ts";
import { readDistJson } from "../../src/io/dist-files.ts";
import { VERIFIER_ENTRY } from "../../src/io/verifier-source.ts";

// Whether `npm start` must build before it serves DIST_DIR (sidecar/main.ts).

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
 * True when `dist/` has no complete build, is older than the content, has no review log, or (given
 * `baseUrl`) was built for another origin: `PORT=4601 npm start` after a run on 4321 must not serve
 * links to 4321.
 */
export async function buildIsStale(contentDir: string, distDir: string, baseUrl?: string): Promise<boolean> {
  const built = await stat(path.join(distDir, MANIFEST_FILE)).catch(() => undefined);
  if (!built) return true;
  // A build from before the review log's commitments (or before the log): its records lack
  // log_nonce (or log_index), which the snapshot requires. Such builds serve no verifier source.
  if (!(await stat(path.join(distDir, "log", "verifier", `${VERIFIER_ENTRY}.txt`)).catch(() => undefined))) return true;
  if (baseUrl !== undefined && (await builtForBaseUrl(distDir)) !== baseUrl) return true;
  return (await newestMtime(contentDir)) > built.mtimeMs;
}

/** Only the part of `_headers.json` that names the origin, so a partial manifest still answers. */
const LinksSchema = z.object({ files: z.record(z.string(), z.object({ link: z.string().optional() })) });

/** The origin a build was made for, read back from the `rel="self"` link of its `/reviews.json` topic. */
export async function builtForBaseUrl(distDir: string): Promise<string | undefined> {
  const manifest = await readDistJson(distDir, `/${MANIFEST_FILE}`, LinksSchema);
  const self = /<([^>]+)\/reviews\.json>;\s*rel="self"/.exec(manifest.files["/reviews.json"]?.link ?? "");
  return self?.[1];
}
