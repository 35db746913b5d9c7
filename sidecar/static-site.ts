import { readFile } from "node:fs/promises";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { staticRepresentations } from "./representation.ts";
import type { SnapshotStore } from "./snapshot.ts";

/**
 * Serves the built `dist/` with the headers the build computed (`_headers.json`): the same ETag,
 * Cache-Control, Content-Type and Link a CDN would send. Only files listed in the manifest are
 * served, so nothing outside the build (or the manifest itself) can be fetched. Bodies are read
 * on first use and dropped when a new build is swapped in.
 */
export function staticSite(store: SnapshotStore) {
  type Send = ReturnType<typeof staticRepresentations>;
  let cache = new Map<string, Promise<Send>>();
  // Files already read, so a hit (and every 304) is answered synchronously, without a microtask.
  let ready = new Map<string, Send>();
  store.onSwap(() => {
    cache = new Map();
    ready = new Map();
  });

  const lookup = (urlPath: string): string | undefined => {
    const files = store.current.manifest.files;
    if (urlPath.endsWith("/")) return files[`${urlPath}index.html`] ? `${urlPath}index.html` : undefined;
    if (files[urlPath]) return urlPath;
    if (files[`${urlPath}/index.html`]) return `${urlPath}/index.html`;
    return undefined;
  };

  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const key = lookup(urlPath);
    if (!key) return next();
    const send = ready.get(key);
    if (send) return send(req, res);
    const snapshotFiles = store.current.manifest.files;
    const h = snapshotFiles[key];
    if (!h) return next();
    let pending = cache.get(key);
    if (!pending) {
      pending = readFile(path.join(store.distDir, ...key.split("/"))).then((body) =>
        staticRepresentations({
          body,
          etag: h.etag,
          contentType: h.content_type,
          cacheControl: h.cache_control,
          lastModifiedMs: h.last_modified ? Date.parse(h.last_modified) : undefined,
          link: h.link,
        }),
      );
      // A failed read is not cached: the next request retries.
      const into = ready;
      pending.then(
        (s) => into.set(key, s),
        () => cache.delete(key),
      );
      cache.set(key, pending);
    }
    return pending.then((s) => s(req, res));
  };
}
