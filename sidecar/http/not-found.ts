import type { RequestHandler, Response } from "express";
import { readDistFile } from "../../src/io/dist-files.ts";
import type { Snapshot } from "../build/snapshot.ts";
import { type PageNotice, withNotice } from "./build-notice.ts";

/** The built 404 page's manifest key. */
const PAGE = "/404.html";
/** A review's page (src/content/dataset.ts `permalink`): `/reviews/<id>/`, without its slash, or its file. */
const WITHDRAWN = /^\/reviews\/([a-z0-9][a-z0-9-]*)(?:\/|\/index\.html)?$/;
/** `home` is a URL's path, which escapes every character special in a quoted attribute but `&`. */
const fallback = (home: string) =>
  Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head><body><main><h1>Not found</h1><p>Nothing lives at this address. Go to the <a href="${home.replaceAll("&", "&amp;")}">home page</a>.</p></main></body></html>`,
  );

function decodedPath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/**
 * The last handler: API paths get the JSON error every client of the API expects; everything else
 * gets the site's own 404 page from the build the request holds (`404.html`, in the site's chrome
 * and with links back), read once per build. The plain fallback is only for a build made before
 * the page existed, e.g. the sidecar-only mode behind a CDN; it links `home`, the home page's path
 * (BASE_URL's folder, as the built pages do).
 */
export function notFound(
  snapshotOf: (res: Response) => Snapshot,
  serveStatic: boolean,
  home: string,
  notice?: () => PageNotice | undefined,
): RequestHandler {
  const plain = fallback(home);
  const pages = new WeakMap<Snapshot, Promise<Buffer | undefined>>();
  const load = (snapshot: Snapshot) => {
    if (!serveStatic || !snapshot.manifest.files[PAGE]) return Promise.resolve(undefined);
    let page = pages.get(snapshot);
    if (!page) {
      page = readDistFile(snapshot.dir, PAGE).catch(() => undefined);
      pages.set(snapshot, page);
    }
    return page;
  };
  return async (req, res) => {
    if (req.path.startsWith("/api/") || req.path === "/mcp") {
      res.status(404).json({ error: "not_found", message: `No resource at ${req.path}` });
      return;
    }
    const snapshot = snapshotOf(res);
    // A withdrawn review's URL is gone, not unknown: its page says when and why (src/pages/withdrawn/).
    // Decoded as the static files are looked up: `mik%65` is the same address as `mike`.
    const gone = WITHDRAWN.exec(decodedPath(req.path));
    const goneKey = gone ? `/withdrawn/${gone[1]}/index.html` : undefined;
    const goneFile = goneKey ? snapshot.manifest.files[goneKey] : undefined;
    if (serveStatic && goneKey && goneFile) {
      const page = await readDistFile(snapshot.dir, goneKey).catch(() => undefined);
      if (page) {
        // The page's own lifetime, as nginx and a CDN send it with the 410.
        res.status(410).setHeader("Cache-Control", goneFile.cache_control);
        const n = notice?.();
        res.type("html").send(n ? withNotice(page, n) : page);
        return;
      }
    }
    const body = await load(snapshot);
    res.status(404).setHeader("Cache-Control", "no-store");
    const page = body ?? plain;
    const n = notice?.();
    // npm start's notice of a failed save is on this page too (no ETag here: it is never cached).
    res.type("html").send(n ? withNotice(page, n) : page);
  };
}
