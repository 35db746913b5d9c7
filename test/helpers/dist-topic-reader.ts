import type { TopicReader } from "../../sidecar/hub/topic-source.ts";
import { contentTypeFor } from "../../src/http-headers/manifest.ts";
import { DistReadError, readDistFile, readManifest } from "../../src/io/dist-files.ts";

/**
 * A hub without a sidecar around it (the hub tests): reads topics from a built folder through the
 * one dist reader, with the Content-Type from its header manifest when there is one.
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
