import { readFile } from "node:fs/promises";
import path from "node:path";
import { contentTypeFor, type HeadersManifest, MANIFEST_FILE } from "../../src/lib/headers.ts";

/** A topic's current representation, exactly as the site serves it. */
export interface TopicContent {
  body: Uint8Array;
  contentType: string;
}

/** Reads one topic by site path (`/feed.xml`); `undefined` when the build has no such file. */
export type TopicReader = (sitePath: string) => Promise<TopicContent | undefined>;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Reads topics from a built `dist/`. The Content-Type comes from the build's header manifest, the
 * same source the static server uses, so a notification's type is exactly the served type.
 */
export function distTopicReader(distDir: string): TopicReader {
  return async (sitePath) => {
    let body: Buffer;
    try {
      body = await readFile(path.join(distDir, ...sitePath.split("/")));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    let contentType = contentTypeFor(sitePath);
    try {
      const manifest = JSON.parse(await readFile(path.join(distDir, MANIFEST_FILE), "utf8")) as HeadersManifest;
      contentType = manifest.files[sitePath]?.content_type ?? contentType;
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    return { body, contentType };
  };
}
