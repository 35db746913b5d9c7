import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RequestHandler } from "express";
import type { SnapshotStore } from "./snapshot.ts";

/** The built 404 page's manifest key. */
const PAGE = "/404.html";
const FALLBACK =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head><body><main><h1>Not found</h1><p>Nothing lives at this address. Go to the <a href="/">home page</a>.</p></main></body></html>';

/**
 * The last handler: API paths get the JSON error every client of the API expects; everything else
 * gets the site's own 404 page from the current build (`dist/404.html`, in the site's chrome and
 * with links back), re-read when a new build is swapped in. The plain fallback is only for a
 * `dist/` built before the page existed, e.g. the sidecar-only mode behind a CDN.
 */
export function notFound(store: SnapshotStore, serveStatic: boolean): RequestHandler {
  let page: Promise<Buffer | undefined> | undefined;
  store.onSwap(() => {
    page = undefined;
  });
  const load = () => {
    if (!serveStatic || !store.current.manifest.files[PAGE]) return Promise.resolve(undefined);
    page ??= readFile(path.join(store.distDir, PAGE)).catch(() => {
      page = undefined;
      return undefined;
    });
    return page;
  };
  return async (req, res) => {
    if (req.path.startsWith("/api/") || req.path === "/mcp") {
      res.status(404).json({ error: "not_found", message: `No resource at ${req.path}` });
      return;
    }
    const body = await load();
    res.status(404).setHeader("Cache-Control", "no-store");
    res.type("html").send(body ?? FALLBACK);
  };
}
