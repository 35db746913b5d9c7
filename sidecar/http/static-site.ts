import type { NextFunction, Request, Response } from "express";
import { readDistFile } from "../../src/io/dist-files.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { noticeEtag, type PageNotice, withNotice } from "./build-notice.ts";
import { readOnly } from "./methods.ts";
import { staticRepresentations } from "./representation.ts";

/**
 * Serves the build with the headers it computed (`_headers.json`): the same ETag, Cache-Control,
 * Content-Type and Link a CDN would send. Only files listed in the manifest are served, so nothing
 * outside the build (or the manifest itself) can be fetched. Each request reads from the snapshot
 * it holds (`snapshotOf(res)`), so its headers and body come from one build even while a rebuild
 * swaps in the next; the topics are already in the snapshot, other bodies are read on first use
 * and cached with their snapshot.
 */
export function staticSite(snapshotOf: (res: Response) => Snapshot, notice?: () => PageNotice | undefined) {
  type Send = ReturnType<typeof staticRepresentations>;
  const caches = new WeakMap<Snapshot, Map<string, Promise<Send | undefined>>>();
  // Files already read, so a hit (and every 304) is answered synchronously, without a microtask.
  const ready = new WeakMap<Snapshot, Map<string, Send>>();

  const lookup = (s: Snapshot, urlPath: string): string | undefined => {
    const files = s.manifest.files;
    if (urlPath.endsWith("/")) return files[`${urlPath}index.html`] ? `${urlPath}index.html` : undefined;
    if (files[urlPath]) return urlPath;
    if (files[`${urlPath}/index.html`]) return `${urlPath}/index.html`;
    return undefined;
  };

  const load = async (s: Snapshot, key: string): Promise<Send | undefined> => {
    const h = s.manifest.files[key];
    const body = s.topics.get(key)?.body ?? (await readDistFile(s.dir, key));
    if (!h || !body) return undefined;
    const send = staticRepresentations({
      body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      etag: h.etag,
      contentType: h.content_type,
      cacheControl: h.cache_control,
      lastModifiedMs: h.last_modified ? Date.parse(h.last_modified) : undefined,
      link: h.link,
      // tlog-tiles: entry bundles SHOULD be compressed at the HTTP layer.
      compressible: key.startsWith("/log/tile/entries/") || undefined,
    });
    let done = ready.get(s);
    if (!done) {
      done = new Map();
      ready.set(s, done);
    }
    done.set(key, send);
    return send;
  };

  // Pages carrying npm start's notice of a failed build: made per notice, never cached by a browser
  // without asking (no-cache), and without Last-Modified, so a 304 always means "same notice".
  const noticed = new WeakMap<Snapshot, { id: string; sends: Map<string, Promise<Send | undefined>> }>();
  const withNoticeOf = (s: Snapshot, key: string, n: PageNotice): Promise<Send | undefined> => {
    let held = noticed.get(s);
    if (held?.id !== n.id) {
      held = { id: n.id, sends: new Map() };
      noticed.set(s, held);
    }
    let pending = held.sends.get(key);
    if (!pending) {
      pending = (async () => {
        const h = s.manifest.files[key];
        const body = s.topics.get(key)?.body ?? (await readDistFile(s.dir, key));
        if (!h || !body) return undefined;
        return staticRepresentations({
          body: withNotice(Buffer.from(body.buffer, body.byteOffset, body.byteLength), n),
          etag: noticeEtag(h.etag, n),
          contentType: h.content_type,
          cacheControl: "no-cache",
          link: h.link,
        });
      })();
      const sends = held.sends;
      pending.catch(() => sends.delete(key));
      sends.set(key, pending);
    }
    return pending;
  };

  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const snapshot = snapshotOf(res);
    const key = lookup(snapshot, urlPath);
    if (!key) return next();
    // A file of the build exists at this path: any other method is a 405, not a 404.
    if (req.method !== "GET" && req.method !== "HEAD") {
      readOnly(req, res, next);
      return;
    }
    const n = notice?.();
    if (n && snapshot.manifest.files[key]?.content_type.startsWith("text/html")) {
      return withNoticeOf(snapshot, key, n).then((send) => (send ? send(req, res) : next()));
    }
    const hit = ready.get(snapshot)?.get(key);
    if (hit) return hit(req, res);
    let cache = caches.get(snapshot);
    if (!cache) {
      cache = new Map();
      caches.set(snapshot, cache);
    }
    let pending = cache.get(key);
    if (!pending) {
      pending = load(snapshot, key);
      // A failed read is not cached: the next request retries.
      pending.catch(() => cache.delete(key));
      cache.set(key, pending);
    }
    return pending.then((send) => (send ? send(req, res) : next()));
  };
}
