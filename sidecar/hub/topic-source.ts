import { contentTypeFor } from "../../src/http-headers/manifest.ts";
import { DistReadError, readDistFile, readManifest } from "../../src/io/dist-files.ts";
import type { Snapshot, TopicContent } from "../build/snapshot.ts";

export type { TopicContent } from "../build/snapshot.ts";

/** Reads one topic by site path (`/feed.xml`); `undefined` when the build has no such file. */
export type TopicReader = (sitePath: string) => Promise<TopicContent | undefined>;

/**
 * The sidecar's reader: topics come from the snapshot the server answers from, so a notification
 * carries exactly the bytes and Content-Type that `GET /feed.xml` serves at that moment.
 */
export function snapshotTopicReader(current: () => Snapshot): TopicReader {
  return async (sitePath) => current().topics.get(sitePath);
}

/**
 * A standalone hub's reader (no sidecar around it): reads the built folder through the one dist
 * reader, with the Content-Type from the build's header manifest when there is one.
 */
export function distTopicReader(distDir: string): TopicReader {
  return async (sitePath) => {
    const body = await readDistFile(distDir, sitePath);
    if (!body) return undefined;
    const manifest = await readManifest(distDir).catch((err: unknown) => {
      if (err instanceof DistReadError && err.missing) return undefined;
      throw err;
    });
    return { body, contentType: manifest?.files[sitePath]?.content_type ?? contentTypeFor(sitePath) };
  };
}
