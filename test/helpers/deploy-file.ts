import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { MANIFEST_FILE, strongEtag } from "../../src/http-headers/manifest.ts";

/**
 * What a deployment does to one file of the build in `distDir`: writes `bytes` at the site path
 * `sitePath` (`/feed.xml`), then the header manifest with the file's new ETag, in that order.
 */
export async function deployFile(distDir: string, sitePath: string, bytes: string): Promise<void> {
  const manifestFile = path.join(distDir, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
  manifest.files[sitePath].etag = strongEtag(bytes);
  await writeFile(path.join(distDir, sitePath), bytes);
  await writeFile(manifestFile, JSON.stringify(manifest));
}

/** Deploys the build's Atom feed with `marker` in a comment before its end; returns the new feed. */
export async function deployMarkedFeed(distDir: string, marker: string): Promise<string> {
  const feed = await readFile(path.join(distDir, "feed.xml"), "utf8");
  const body = feed.replace("</feed>", `<!-- ${marker} --></feed>`);
  await deployFile(distDir, "/feed.xml", body);
  return body;
}
